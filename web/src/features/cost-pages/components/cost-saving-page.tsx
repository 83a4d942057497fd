import { Stack } from '@mui/material';
import { SavingsRecommendations } from '@/components/findings';
import { PageHeader } from '@/components/page-header';
import { resolveTimeRange } from '@/lib/cost';
import { useNow } from '../hooks/use-now';
import { CreditsRefundsWidget } from './credits-refunds-widget';
import { GrowthWidget } from './growth-widget';
import { UsageFindingWidget } from './usage-finding-widget';

/**
 * Cost Saving: the recommendations on the discovered resources (issue 14), then what the cost
 * data alone shows over the last 30 days (UTC) — credits and refunds received,
 * previous-generation instance families, on-demand compute, and fast-growing services.
 */
export function CostSavingPage({ embedded = false }: { embedded?: boolean }) {
  const now = useNow();
  const last30Days = resolveTimeRange('last30Days', undefined, now);
  return (
    <>
      {embedded ? null : <PageHeader title="Cost Saving" subtitle="What your cost data shows about savings over the last 30 days (UTC)" />}
      <Stack spacing={3}>
        <SavingsRecommendations />
        <CreditsRefundsWidget range={last30Days} />
        <UsageFindingWidget kind="previousGeneration" range={last30Days} />
        <UsageFindingWidget kind="onDemand" range={last30Days} />
        <GrowthWidget range={last30Days} />
      </Stack>
    </>
  );
}
