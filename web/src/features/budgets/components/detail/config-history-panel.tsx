import { Alert, Skeleton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useConfigHistory } from '../../api';
import { changeTypeLabel, describeConfigChange } from './config-change-description';
import { DETAIL_MESSAGES } from './detail-messages';
import { DetailPanel } from './detail-panel';
import { formatDateTimeUtc } from './format-date-time';

/** Spec 2 §2: who changed what and when, newest first as the server sends it. */
export function ConfigHistoryPanel({ budgetId }: { budgetId: number }) {
  const history = useConfigHistory(budgetId);
  return (
    <DetailPanel title="Configuration Change History">
      {/* Rows already loaded stay when a background refetch fails. */}
      {history.data === undefined && history.isError ? (
        <Alert severity="error">{DETAIL_MESSAGES.configHistoryFailed}</Alert>
      ) : history.data === undefined ? (
        <Stack spacing={1} aria-label="Loading configuration history">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={40} />
          ))}
        </Stack>
      ) : history.data.length === 0 ? (
        <Typography color="text.secondary">No configuration changes recorded.</Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Configuration Change History">
            <TableHead>
              <TableRow>
                <TableCell>Date</TableCell>
                <TableCell>Changed By</TableCell>
                <TableCell>Type</TableCell>
                <TableCell>Description</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {history.data.map((item) => (
                <TableRow key={item.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTimeUtc(item.changedAt)}</TableCell>
                  <TableCell>{item.changedBy?.trim() || 'System'}</TableCell>
                  <TableCell>{changeTypeLabel(item.changeType)}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{describeConfigChange(item)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </DetailPanel>
  );
}
