import { Grid, Stack } from '@mui/material';
import { PageHeader } from '@/components/page-header';
import { resolveTimeRange } from '@/lib/cost';
import { useNow } from '../hooks/use-now';
import { DailySpendWidget } from './daily-spend-widget';
import { MonthSpendWidget } from './month-spend-widget';
import { TopCostWidget } from './top-cost-widget';

/**
 * Basic Cost: this month's spend so far, its forecast, last month, the top services and accounts
 * of the month and a daily chart (UTC, every charge type). `embedded` drops the page title (the
 * Cost Analysis tab page has its own).
 */
export function BasicCostPage({ embedded = false }: { embedded?: boolean }) {
  const now = useNow();
  const thisMonth = resolveTimeRange('thisMonth', undefined, now);
  return (
    <>
      {embedded ? null : <PageHeader title="Basic Cost" subtitle="This month's spend at a glance (UTC)" />}
      <Stack spacing={3}>
        <MonthSpendWidget now={now} />
        <DailySpendWidget title="Daily spend this month" range={thisMonth} />
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, lg: 6 }}>
            <TopCostWidget title="Top services this month" nameHeader="Service" dimension="service" range={thisMonth} />
          </Grid>
          <Grid size={{ xs: 12, lg: 6 }}>
            <TopCostWidget title="Top accounts this month" nameHeader="Account" dimension="account" range={thisMonth} />
          </Grid>
        </Grid>
      </Stack>
    </>
  );
}
