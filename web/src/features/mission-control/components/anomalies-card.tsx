import { Box, Button, List, ListItem, ListItemButton, Skeleton, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { CostErrorAlert } from '@/components/cost';
import { formatCurrency, formatDayLabel } from '@/lib/cost';
import { useOpenAnomalies, type OpenAnomalies } from '../api/use-open-anomalies';
import { DashboardCard } from './dashboard-card';

type Anomaly = OpenAnomalies['anomalies'][number];

/** How many of the largest open anomalies the card links to. */
export const ANOMALIES_CARD_SIZE = 3;
export const ANOMALIES_ERROR = 'Failed to load anomalies';
export const NO_OPEN_ANOMALIES = 'No open anomalies in the last 30 days';

const above = (amount: number, currency: string) => `+${formatCurrency(amount, { currency })}`;

/** The series: its service, or `tagKey=tagValue` for a tag series. */
function subject(anomaly: Anomaly): string {
  return anomaly.service ?? `${anomaly.tagKey ?? ''}=${anomaly.tagValue ?? ''}`;
}

function where(anomaly: Anomaly): string {
  const account = anomaly.accountName || anomaly.accountId;
  return account ? `${account} · since ${formatDayLabel(anomaly.start)}` : `Since ${formatDayLabel(anomaly.start)}`;
}

function Summary({ answer }: { answer: OpenAnomalies }) {
  const count = answer.openCount === 1 ? '1 open anomaly' : `${answer.openCount} open anomalies`;
  return (
    <Box>
      <Typography variant="h5" component="p" fontWeight={600}>
        {count}
      </Typography>
      {/* One line per currency: amounts in different currencies are never added. */}
      <Stack component="ul" aria-label="Impact by currency" sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {answer.openImpact.map((impact) => (
          <Typography key={impact.currency} component="li" variant="body2" color="error.main">
            {above(impact.amount, impact.currency)} above expected
          </Typography>
        ))}
      </Stack>
    </Box>
  );
}

/** Mission Control's Anomalies card: the open anomalies of the last 30 days, the largest as links. */
export function AnomaliesCard() {
  const anomalies = useOpenAnomalies();

  let body;
  if (anomalies.isError) {
    body = <CostErrorAlert title={ANOMALIES_ERROR} error={anomalies.error} onRetry={() => void anomalies.refetch()} />;
  } else if (anomalies.isPending) {
    body = (
      <Stack spacing={1} aria-busy="true" aria-label="Loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={36} />
        ))}
      </Stack>
    );
  } else if (anomalies.data.openCount === 0) {
    body = (
      <Typography color="text.secondary" role="status">
        {NO_OPEN_ANOMALIES}
      </Typography>
    );
  } else {
    body = (
      <Stack spacing={1.5}>
        <Summary answer={anomalies.data} />
        <List aria-label="Largest open anomalies" disablePadding>
          {anomalies.data.anomalies.slice(0, ANOMALIES_CARD_SIZE).map((anomaly) => (
            <ListItem key={anomaly.id} disablePadding>
              <ListItemButton component={RouterLink} to={`/anomalies/${anomaly.id}`} sx={{ px: 1, borderRadius: 1 }}>
                <Stack direction="row" spacing={2} justifyContent="space-between" alignItems="baseline" sx={{ width: '100%' }}>
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="body2" fontWeight={600} noWrap>
                      {subject(anomaly)}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {where(anomaly)}
                    </Typography>
                  </Box>
                  <Typography variant="body2" color="error.main" sx={{ whiteSpace: 'nowrap' }}>
                    {above(anomaly.impact, anomaly.currency)}
                  </Typography>
                </Stack>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Stack>
    );
  }

  return (
    <DashboardCard
      title="Anomalies"
      action={
        <Button component={RouterLink} to="/anomalies" size="small">
          View all
        </Button>
      }
    >
      {body}
    </DashboardCard>
  );
}
