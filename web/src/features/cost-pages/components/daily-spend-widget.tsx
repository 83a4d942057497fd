import { CostChart } from '@/components/cost';
import { formatRangeLabel, useCostAggr, type TimeRange } from '@/lib/cost';
import { totalRequest } from '../api/requests';
import { toChartSeries, toDateRows } from '../utils/date-rows';
import { CostWidget } from './cost-widget';

/** A bar per day of the range: the spend of all charge types. */
export function DailySpendWidget({ title, range }: { title: string; range: TimeRange }) {
  const daily = useCostAggr(totalRequest(range, { interval: 'daily' }));
  return (
    <CostWidget
      title={title}
      subtitle={formatRangeLabel(range)}
      queries={[daily]}
      select={() => ({ ...toChartSeries(toDateRows(daily.data!.data, () => 'Spend')), currency: daily.data!.currency })}
      isEmpty={(chart) => chart.categories.length === 0}
    >
      {(chart) => (
        <CostChart type="bar" categories={chart.categories} series={chart.series} currency={chart.currency} height={280} ariaLabel={`${title} chart`} />
      )}
    </CostWidget>
  );
}
