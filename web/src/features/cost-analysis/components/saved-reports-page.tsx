import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  Button,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink, useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { PRESET_LABELS, escapeToken, formatRangeLabel, groupKeyLabel, resolveTimeRange } from '@/lib/cost';
import { useSavedReports } from '../hooks/use-saved-reports';
import type { SavedReport } from '../types';
import { VIEW_OPTIONS } from '../utils/analysis-state';
import { deleteReport } from '../utils/saved-reports';
import { REPORT_PARAM } from '../utils/url-state';

const savedDate = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

function periodText(report: SavedReport): string {
  const { preset, startDate, endDate } = report.timeRange;
  if (preset === 'custom') return formatRangeLabel(resolveTimeRange('custom', { startDate, endDate }));
  return PRESET_LABELS[preset] ?? preset;
}

function groupingText(report: SavedReport): string {
  const view = VIEW_OPTIONS.find((option) => option.value === report.viewType)?.label ?? report.viewType;
  const groups = report.groupBy.length ? report.groupBy.map(groupKeyLabel).join(', ') : 'Ungrouped';
  return `${groups} · ${view}`;
}

function EmptyReports() {
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }} role="status">
      <Typography variant="h6" component="p" gutterBottom>
        No saved reports yet
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Open Advanced Cost, choose the period, grouping, view, charge types and filters you want, then click Save Report.
      </Typography>
      <Button variant="contained" component={RouterLink} to="/cost/advanced">
        Go to Advanced Cost
      </Button>
    </Paper>
  );
}

/** /cost/report: the reports saved in this browser, to open or delete. */
export function SavedReportsPage() {
  const reports = useSavedReports();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Cost Report" subtitle="Reports saved from Advanced Cost in this browser." />
      {reports.length === 0 ? (
        <EmptyReports />
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label="Saved reports">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Description</TableCell>
                <TableCell>Saved</TableCell>
                <TableCell>Period</TableCell>
                <TableCell>Grouping</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {reports.map((report) => (
                <TableRow key={report.id} hover>
                  <TableCell component="th" scope="row">
                    {report.name}
                  </TableCell>
                  <TableCell>{report.description || '—'}</TableCell>
                  <TableCell>{savedDate.format(new Date(report.savedAt))}</TableCell>
                  <TableCell>{periodText(report)}</TableCell>
                  <TableCell>{groupingText(report)}</TableCell>
                  <TableCell align="right">
                    <Stack direction="row" spacing={1} justifyContent="flex-end">
                      <Button
                        size="small"
                        variant="outlined"
                        aria-label={`Open ${report.name}`}
                        onClick={() => navigate(`/cost/advanced?${REPORT_PARAM}=${escapeToken(report.id)}`)}
                      >
                        Open
                      </Button>
                      <Button
                        size="small"
                        color="error"
                        startIcon={<DeleteOutlineIcon />}
                        aria-label={`Delete ${report.name}`}
                        onClick={() => deleteReport(report.id)}
                      >
                        Delete
                      </Button>
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
}
