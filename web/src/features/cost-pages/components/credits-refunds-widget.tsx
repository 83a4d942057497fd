import { Stack } from '@mui/material';
import { chargeTypeLabel, formatCurrency, formatRangeLabel, rowDimension, useCostAggr, useSpend, type CostRow, type TimeRange } from '@/lib/cost';
import { breakdownRequest, spendRequest } from '../api/requests';
import { accountLabel, providerOf } from '../utils/row-labels';
import { CostWidget } from './cost-widget';
import { Figure } from './figure';
import { NothingFound } from './nothing-found';
import { RowsTable } from './rows-table';

const CREDIT_TYPES = ['Credit', 'Refund'];

/** Credits and refunds received in the range (`/v2/cost/spend`) and the rows they come from. */
export function CreditsRefundsWidget({ range }: { range: TimeRange }) {
  const spend = useSpend(spendRequest(range));
  const rows = useCostAggr(breakdownRequest(range, ['cost_type', 'cloud_provider', 'service', 'account'], CREDIT_TYPES));
  return (
    <CostWidget
      title="Credits and refunds received"
      subtitle={formatRangeLabel(range)}
      queries={[spend, rows]}
      select={() => {
        const byType = spend.data!.current_period.cost_type;
        return { credits: -(byType.Credit ?? 0), refunds: -(byType.Refund ?? 0), rows: rows.data!.data.filter((row) => row.amount !== 0) };
      }}
      isEmpty={(d) => d.credits === 0 && d.refunds === 0 && d.rows.length === 0}
      emptyContent={<NothingFound>No credits or refunds were received in this period.</NothingFound>}
    >
      {(d) => (
        <Stack spacing={2}>
          <Stack direction="row" spacing={4}>
            <Figure label="Credits received" value={formatCurrency(d.credits)} />
            <Figure label="Refunds received" value={formatCurrency(d.refunds)} />
          </Stack>
          <RowsTable<CostRow>
            label="Credit and refund rows"
            rows={d.rows}
            rowKey={(row) => row.grouping_path}
            columns={[
              { header: 'Type', cell: (row) => chargeTypeLabel(rowDimension(row, 'cost_type')) },
              { header: 'Provider', cell: providerOf },
              { header: 'Service', cell: (row) => rowDimension(row, 'service') },
              { header: 'Account', cell: accountLabel },
              { header: 'Amount', align: 'right', cell: (row) => formatCurrency(row.amount) },
            ]}
          />
        </Stack>
      )}
    </CostWidget>
  );
}
