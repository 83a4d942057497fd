import { Stack, Typography } from '@mui/material';
import { formatCurrency, formatPercent, formatRangeLabel, previousTimeRange, rowDimension, useCostAggr, type TimeRange } from '@/lib/cost';
import { breakdownRequest } from '../api/requests';
import { GROWTH_THRESHOLD_PERCENT, servicesGrowing, type ServiceGrowth } from '../utils/growth';
import { CostWidget } from './cost-widget';
import { NothingFound } from './nothing-found';
import { RowsTable } from './rows-table';

/** Services whose spend in the range grew more than 25 % against the period of the same length before. */
export function GrowthWidget({ range }: { range: TimeRange }) {
  const before = previousTimeRange(range);
  const current = useCostAggr(breakdownRequest(range, ['service']));
  const previous = useCostAggr(breakdownRequest(before, ['service']));
  const byService = (rows: typeof current.data) => (rows?.data ?? []).map((row) => ({ name: rowDimension(row, 'service'), amount: row.amount }));
  return (
    <CostWidget
      title="Fast-growing services"
      subtitle={`${formatRangeLabel(range)} against ${formatRangeLabel(before)}`}
      queries={[current, previous]}
      select={() => servicesGrowing(byService(current.data), byService(previous.data))}
      isEmpty={(grown) => grown.length === 0}
      emptyContent={<NothingFound>{`No service grew more than ${GROWTH_THRESHOLD_PERCENT}% against the period before.`}</NothingFound>}
    >
      {(grown) => (
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            Services whose spend grew more than {GROWTH_THRESHOLD_PERCENT}% against the period before, largest increase first.
          </Typography>
          <RowsTable<ServiceGrowth>
            label="Fast-growing services rows"
            rows={grown}
            rowKey={(row) => row.service}
            columns={[
              { header: 'Service', cell: (row) => row.service },
              { header: 'Period before', align: 'right', cell: (row) => formatCurrency(row.previous) },
              { header: 'This period', align: 'right', cell: (row) => formatCurrency(row.current) },
              { header: 'Change', align: 'right', cell: (row) => (row.percent === null ? 'New' : formatPercent(row.percent)) },
            ]}
          />
        </Stack>
      )}
    </CostWidget>
  );
}
