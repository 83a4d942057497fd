import { formatRangeLabel, rowDimension, useCostAggr, type GroupKey, type TimeRange } from '@/lib/cost';
import { TOP_LIMIT, topRequest } from '../api/requests';
import { CostWidget } from './cost-widget';
import { RankedTable } from './ranked-table';

export interface TopCostWidgetProps {
  title: string;
  /** The table's first column (Service, Account, …). */
  nameHeader: string;
  dimension: Exclude<GroupKey, 'none'>;
  range: TimeRange;
  limit?: number;
  /** Turns the dimension's label into the name shown (e.g. `aws` → `AWS`). */
  formatName?: (value: string) => string;
}

/** The largest groups of one dimension over the range, with their share of the period's total. */
export function TopCostWidget({ title, nameHeader, dimension, range, limit = TOP_LIMIT, formatName = (v) => v }: TopCostWidgetProps) {
  const top = useCostAggr(topRequest(range, dimension, limit));
  return (
    <CostWidget
      title={title}
      subtitle={formatRangeLabel(range)}
      queries={[top]}
      select={() => ({
        total: top.data!.summary.accrued_cost,
        currency: top.data!.currency,
        rows: top.data!.data.map((row) => {
          const id = row.grouping_values[0] ?? rowDimension(row, dimension);
          return { key: id, name: formatName(rowDimension(row, dimension)), detail: dimension === 'account' ? id : undefined, amount: row.amount };
        }),
      })}
      isEmpty={(d) => d.rows.length === 0}
    >
      {(d) => <RankedTable label={title} nameHeader={nameHeader} rows={d.rows} total={d.total} currency={d.currency} />}
    </CostWidget>
  );
}
