import { useAccounts } from '@/api/queries';
import { formatCurrency, formatPercent, formatRangeLabel, previousTimeRange, useCostAggr, type TimeRange } from '@/lib/cost';
import { providerLabel } from '@/lib/cost-filters';
import { breakdownRequest } from '../api/requests';
import { joinAccountSpend, type AccountSpend } from '../utils/account-spend';
import { CostWidget } from './cost-widget';
import { RowsTable } from './rows-table';

/** Spend per account and provider in the period, against the previous period (§9). */
export function AccountSpendWidget({ range }: { range: TimeRange }) {
  const before = previousTimeRange(range);
  const current = useCostAggr(breakdownRequest(range, ['account', 'cloud_provider']));
  const previous = useCostAggr(breakdownRequest(before, ['account', 'cloud_provider']));
  const accounts = useAccounts();
  const previousHeader = `Previous period (${formatRangeLabel(before)})`;
  return (
    <CostWidget
      title="Spend per account"
      subtitle={`${formatRangeLabel(range)} against ${formatRangeLabel(before)}`}
      queries={[current, previous, accounts]}
      select={() => joinAccountSpend(current.data!.data, previous.data!.data, accounts.data!)}
      isEmpty={(rows) => rows.length === 0}
    >
      {(rows) => (
        <RowsTable<AccountSpend>
          label="Spend per account"
          rows={rows}
          rowKey={(row) => `${row.provider}/${row.accountId}`}
          columns={[
            { header: 'Account', cell: (row) => row.name },
            { header: 'Account ID', cell: (row) => row.accountId },
            { header: 'Provider', cell: (row) => providerLabel(row.provider) },
            { header: 'Spend', align: 'right', cell: (row) => formatCurrency(row.amount) },
            { header: previousHeader, align: 'right', cell: (row) => formatCurrency(row.previous) },
            { header: 'Change', align: 'right', cell: (row) => formatPercent(row.change) },
          ]}
        />
      )}
    </CostWidget>
  );
}
