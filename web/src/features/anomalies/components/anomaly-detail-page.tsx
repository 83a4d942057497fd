import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, Grid, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { Link as RouterLink, useParams } from 'react-router';
import { errorMessage, isApiError } from '@/api/api-error';
import { PageHeader } from '@/components/page-header';
import { useAnomaly } from '../api/get-anomaly';
import { useCanManageAnomalies } from '../hooks/use-can-manage';
import type { AnomalyDetail } from '../types';
import { accountLabel, providerText, subjectLabel } from '../utils/labels';
import { ANOMALY_MESSAGES } from '../utils/messages';
import { AnomalyChart } from './anomaly-chart';
import { AnomalyFacts } from './anomaly-facts';
import { AnomalyStatusActions } from './anomaly-status-actions';
import { ContributorsTable } from './contributors-table';

function BackToList() {
  return (
    <Button component={RouterLink} to="/anomalies" startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
      All anomalies
    </Button>
  );
}

function NotFound() {
  return (
    <Box>
      <BackToList />
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography variant="h6" component="p" role="status">
          {ANOMALY_MESSAGES.notFound}
        </Typography>
      </Paper>
    </Box>
  );
}

/** `/anomalies/{id}` with a numeric id; any other id is not found without asking. */
export function AnomalyDetailPage() {
  const { id } = useParams();
  const numeric = id !== undefined && /^\d+$/.test(id) ? Number(id) : null;
  return numeric === null ? <NotFound /> : <AnomalyDetailView id={numeric} />;
}

function AnomalyDetailView({ id }: { id: number }) {
  const anomaly = useAnomaly(id);
  const canManage = useCanManageAnomalies();

  if (anomaly.isError) {
    if (isApiError(anomaly.error) && anomaly.error.status === 404) return <NotFound />;
    return (
      <Box>
        <BackToList />
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void anomaly.refetch()}>
              Retry
            </Button>
          }
        >
          {ANOMALY_MESSAGES.detailFailed}: {errorMessage(anomaly.error, 'unexpected error')}
        </Alert>
      </Box>
    );
  }
  if (anomaly.isPending) {
    return (
      <Stack spacing={2} aria-label="Loading the anomaly" aria-busy="true">
        <Skeleton variant="text" width={320} height={48} />
        <Skeleton variant="rounded" height={320} />
      </Stack>
    );
  }
  return <AnomalyDetailContent detail={anomaly.data} canManage={canManage} />;
}

function AnomalyDetailContent({ detail, canManage }: { detail: AnomalyDetail; canManage: boolean }) {
  const subject = subjectLabel(detail);
  const where = [accountLabel(detail), providerText(detail.provider)].filter(Boolean).join(' · ');
  return (
    <Box>
      <BackToList />
      <PageHeader title={subject} subtitle={where || undefined} actions={canManage ? <AnomalyStatusActions anomaly={detail} /> : null} />
      <Stack spacing={3}>
        <Paper variant="outlined" sx={{ p: 2.5 }}>
          <AnomalyFacts anomaly={detail} />
        </Paper>
        <Paper variant="outlined" sx={{ p: 2.5 }}>
          <Typography variant="subtitle1" component="h2" fontWeight={600} sx={{ mb: 1 }}>
            Daily cost
          </Typography>
          <AnomalyChart points={detail.series} currency={detail.currency} ariaLabel={`Daily cost of ${subject}`} />
        </Paper>
        <Box component="section" aria-labelledby="contributors-heading">
          <Typography variant="h6" component="h2" id="contributors-heading" sx={{ mb: 0.5 }}>
            What changed
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            The largest rises on the first day against the usual day of the 28 days before.
          </Typography>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, lg: 6 }}>
              <ContributorsTable
                title="Usage types"
                keyLabel="Usage type"
                contributors={detail.contributors.usageTypes}
                currency={detail.currency}
                emptyText="No usage type rose on the first day."
              />
            </Grid>
            <Grid size={{ xs: 12, lg: 6 }}>
              <ContributorsTable
                title="Resources"
                keyLabel="Resource"
                contributors={detail.contributors.resources}
                currency={detail.currency}
                emptyText="No resource ids in this cost."
              />
            </Grid>
          </Grid>
        </Box>
      </Stack>
    </Box>
  );
}
