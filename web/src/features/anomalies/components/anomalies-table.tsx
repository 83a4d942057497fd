import { Link, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate } from 'react-router';
import { formatDayLabel } from '@/lib/cost';
import type { Anomaly } from '../types';
import { accountLabel, impactLabel, money, providerText, subjectLabel } from '../utils/labels';
import { AnomalyStatusChip } from './anomaly-status-chip';

export const anomalyPath = (id: number) => `/anomalies/${id}`;

function Missing() {
  return (
    <Typography component="span" color="text.secondary">
      —
    </Typography>
  );
}

/** The anomalies as the server ordered them (largest impact first); a row opens its anomaly. */
export function AnomaliesTable({ anomalies }: { anomalies: Anomaly[] }) {
  const navigate = useNavigate();
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Anomalies" size="small" sx={{ minWidth: 960 }}>
        <TableHead>
          <TableRow>
            <TableCell>Start</TableCell>
            <TableCell align="right">Days</TableCell>
            <TableCell>Service / Tag</TableCell>
            <TableCell>Account</TableCell>
            <TableCell>Provider</TableCell>
            <TableCell align="right">Actual</TableCell>
            <TableCell align="right">Expected</TableCell>
            <TableCell align="right">Impact</TableCell>
            <TableCell>Status</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {anomalies.map((anomaly) => (
            <TableRow key={anomaly.id} hover onClick={() => navigate(anomalyPath(anomaly.id))} sx={{ cursor: 'pointer' }}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDayLabel(anomaly.start)}</TableCell>
              <TableCell align="right">{anomaly.days}</TableCell>
              <TableCell>
                {/* The link keeps the row reachable from the keyboard; the row's click does the same. */}
                <Link component={RouterLink} to={anomalyPath(anomaly.id)} onClick={(event) => event.stopPropagation()}>
                  {subjectLabel(anomaly)}
                </Link>
              </TableCell>
              <TableCell>{accountLabel(anomaly) ?? <Missing />}</TableCell>
              <TableCell>{providerText(anomaly.provider) ?? <Missing />}</TableCell>
              <TableCell align="right">{money(anomaly.actual, anomaly.currency)}</TableCell>
              <TableCell align="right">{money(anomaly.expected, anomaly.currency)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap', color: 'error.main' }}>
                {impactLabel(anomaly)}
              </TableCell>
              <TableCell>
                <AnomalyStatusChip status={anomaly.status} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
