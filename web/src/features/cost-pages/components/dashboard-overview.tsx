import { Grid, Stack } from '@mui/material';
import { resolveTimeRange } from '@/lib/cost';
import { providerLabel } from '@/lib/cost-filters';
import { useNow } from '../hooks/use-now';
import { DailySpendWidget } from './daily-spend-widget';
import { MonthSpendWidget } from './month-spend-widget';
import { TopCostWidget } from './top-cost-widget';

const TOP = 5;

/** The Dashboard tab: this month against last, the daily trend and the top groups of the month. */
export function DashboardOverview() {
  const now = useNow();
  const thisMonth = resolveTimeRange('thisMonth', undefined, now);
  return (
    <Stack spacing={3}>
      <MonthSpendWidget now={now} />
      <DailySpendWidget title="Daily spend, last 30 days" range={resolveTimeRange('last30Days', undefined, now)} />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <TopCostWidget title="Top services" nameHeader="Service" dimension="service" range={thisMonth} limit={TOP} />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <TopCostWidget title="Top accounts" nameHeader="Account" dimension="account" range={thisMonth} limit={TOP} />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <TopCostWidget title="Top regions" nameHeader="Region" dimension="region" range={thisMonth} limit={TOP} />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <TopCostWidget title="Cloud providers" nameHeader="Provider" dimension="cloud_provider" range={thisMonth} limit={TOP} formatName={providerLabel} />
        </Grid>
      </Grid>
    </Stack>
  );
}
