import { Alert, Box, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { PageHeader } from '@/components/page-header';
import { TimeRangeSelector } from '@/components/cost';
import { ANALYSIS_PRESETS, formatRangeLabel } from '@/lib/cost';
import { useAnomalies } from '../api/get-anomalies';
import { useAnomalyFilters } from '../hooks/use-anomaly-filters';
import { useCanManageAnomalies } from '../hooks/use-can-manage';
import { ANOMALY_MESSAGES } from '../utils/messages';
import { AnomaliesTable } from './anomalies-table';
import { AnomalySettingsPanel } from './anomaly-settings-panel';
import { OpenImpact } from './open-impact';
import { StatusFilter } from './status-filter';

/** The periods offered here: the cost screens' presets without the single days. */
const ANOMALY_PRESETS = ANALYSIS_PRESETS.filter((option) => option.value !== 'today' && option.value !== 'yesterday');

/** `/anomalies`: the runs of the chosen period and status, and (owners, admins) the settings. */
export function AnomaliesPage() {
  const { range, status, setRange, setStatus, query } = useAnomalyFilters();
  const anomalies = useAnomalies(query);
  const canManage = useCanManageAnomalies();

  let body;
  if (anomalies.isError) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void anomalies.refetch()}>
            Retry
          </Button>
        }
      >
        {ANOMALY_MESSAGES.listFailed}: {errorMessage(anomalies.error, 'unexpected error')}
      </Alert>
    );
  } else if (anomalies.isPending) {
    body = (
      <Stack spacing={1} aria-label="Loading anomalies" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={40} />
        ))}
      </Stack>
    );
  } else if (anomalies.data.anomalies.length === 0) {
    body = (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography variant="h6" component="p" role="status">
          {ANOMALY_MESSAGES.empty(status)}
        </Typography>
        <Typography color="text.secondary">{ANOMALY_MESSAGES.emptyHint}</Typography>
      </Paper>
    );
  } else {
    body = <AnomaliesTable anomalies={anomalies.data.anomalies} />;
  }

  return (
    <Box>
      <PageHeader title={ANOMALY_MESSAGES.pageTitle} subtitle={ANOMALY_MESSAGES.pageSubtitle} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }} justifyContent="space-between" sx={{ mb: 2 }}>
        <Stack direction="row" spacing={2} alignItems="center">
          <TimeRangeSelector value={range} onChange={setRange} presets={ANOMALY_PRESETS} />
          <StatusFilter value={status} onChange={setStatus} />
        </Stack>
        {anomalies.data ? <OpenImpact count={anomalies.data.openCount} impact={anomalies.data.openImpact} /> : null}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {formatRangeLabel(range)}
      </Typography>
      <Box component="section" aria-label="Anomaly list" sx={{ opacity: anomalies.isPlaceholderData ? 0.6 : 1 }}>
        {body}
      </Box>
      {canManage ? <AnomalySettingsPanel /> : null}
    </Box>
  );
}
