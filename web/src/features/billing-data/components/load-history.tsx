import {
  Alert,
  Box,
  Button,
  Chip,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { useIngestJobs } from '../api/get-ingest-jobs';
import type { IngestJob } from '../types';
import { formatLabel } from '../utils/formats';
import { formatBilledTotal, formatCount, formatDateTimeUtc } from '../utils/numbers';
import { PHASE_LABELS, readPercent } from '../utils/progress';
import { STATUS_COLORS, STATUS_LABELS } from '../utils/status';

export const UPLOAD_SOURCE = 'Upload';

export const EMPTY_HISTORY_TEXT =
  'No billing data loaded yet. Upload a FOCUS, AWS CUR, GCP or Azure export to get started.';

/** The format of a load: the one asked for, else the ones detected per file. */
function jobFormat(job: IngestJob): string {
  if (job.format) return formatLabel(job.format);
  const detected = [...new Set(job.files.map((file) => file.format).filter((f): f is string => Boolean(f)))];
  return detected.length > 0 ? detected.map(formatLabel).join(', ') : formatLabel(null);
}

function StatusChip({ job }: { job: IngestJob }) {
  const chip = <Chip size="small" label={STATUS_LABELS[job.status]} color={STATUS_COLORS[job.status]} variant="outlined" />;
  if (job.status !== 'failed' || !job.error) return chip;
  return (
    <Tooltip title={job.error}>
      <span>{chip}</span>
    </Tooltip>
  );
}

/**
 * The loads and where each came from: `source` names a cloud sync (e.g. "AWS sync ·
 * 123456789012 · s3://bucket/prefix/export · 2026-10"); null for an upload.
 */
function HistoryTable({ jobs }: { jobs: IngestJob[] }) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Load history" sx={{ minWidth: 1000 }}>
        <TableHead>
          <TableRow>
            <TableCell>Started</TableCell>
            <TableCell>Source</TableCell>
            <TableCell>Files</TableCell>
            <TableCell>Format</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Rows</TableCell>
            <TableCell align="right">Billed cost</TableCell>
            <TableCell>By</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {jobs.map((job) => (
            <TableRow key={job.id} hover sx={{ verticalAlign: 'top' }}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTimeUtc(job.started_at ?? job.created_at)}</TableCell>
              <TableCell sx={{ maxWidth: 300 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {job.source ?? UPLOAD_SOURCE}
                </Typography>
              </TableCell>
              <TableCell sx={{ maxWidth: 420 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {job.files.map((file) => file.name).join(', ')}
                </Typography>
                {job.status === 'failed' && job.error ? (
                  <Typography variant="body2" color="error" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                    {job.error}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell>{jobFormat(job)}</TableCell>
              <TableCell>
                <StatusChip job={job} />
                {job.status === 'running' ? (
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
                    {PHASE_LABELS[job.progress.phase]}
                    {readPercent(job.progress) === null ? null : ` ${readPercent(job.progress)}%`}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell align="right">
                {job.status === 'succeeded' ? formatCount(job.rows) : null}
                {job.status === 'running' ? `${formatCount(job.progress.rows_read)} read` : null}
                {job.status !== 'succeeded' && job.status !== 'running' ? '—' : null}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {job.status === 'succeeded' ? formatBilledTotal(job.totals) : '—'}
              </TableCell>
              <TableCell>{job.created_by}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** GET /v1/ingest: the latest loads of this account, newest first. */
export function LoadHistory() {
  const jobs = useIngestJobs();
  let content;
  if (jobs.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => jobs.refetch()}>
            Retry
          </Button>
        }
      >
        Failed to fetch the load history: {errorMessage(jobs.error, 'unexpected error')}
      </Alert>
    );
  } else if (jobs.isPending) {
    content = (
      <Stack spacing={1} aria-label="Loading the load history">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={48} />
        ))}
      </Stack>
    );
  } else if (jobs.data.length === 0) {
    content = (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary">{EMPTY_HISTORY_TEXT}</Typography>
      </Paper>
    );
  } else {
    content = <HistoryTable jobs={jobs.data} />;
  }
  return (
    <Box component="section" aria-labelledby="load-history-title">
      <Typography id="load-history-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        Load history
      </Typography>
      {content}
    </Box>
  );
}
