import { useState } from 'react';
import { TimeRangeSelector } from '@/components/cost';
import { PageHeader } from '@/components/page-header';
import { resolveTimeRange, type TimeRange } from '@/lib/cost';
import { AccountSpendWidget } from './account-spend-widget';

/** /managed-accounts: spend per account and provider for the chosen period, with its trend. */
export function ManagedAccountsPage() {
  const [range, setRange] = useState<TimeRange>(() => resolveTimeRange('thisMonth'));
  return (
    <>
      <PageHeader title="Managed Accounts" subtitle="Spend per cloud account (UTC, every charge type)" actions={<TimeRangeSelector value={range} onChange={setRange} />} />
      <AccountSpendWidget range={range} />
    </>
  );
}
