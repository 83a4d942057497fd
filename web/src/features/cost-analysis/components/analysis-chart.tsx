import { Alert } from '@mui/material';
import { CostChart } from '@/components/cost';
import { groupKeyLabel, type GroupKey } from '@/lib/cost';
import type { ViewType } from '../types';
import type { ChartData } from '../utils/chart-data';

export interface AnalysisChartProps {
  data: ChartData;
  view: ViewType;
  primary: GroupKey | undefined;
  /** How many groups the API has for the period (its `total_groups`). */
  totalGroups: number;
  /** The answer's currency. */
  currency?: string;
  /** A click (or Enter) on a group's bar, area or legend entry: drill into it (docs/ANALYST-FLOW.md). */
  onDrill?(label: string): void;
}

/**
 * The stacked chart by the primary group. Daily, weekly and monthly amounts are separate
 * buckets, so they are bars. Cumulative amounts are running totals that only grow along a
 * continuous time axis, so they are a stacked area: the top edge reads as the overall running
 * total and each band as its group's share of it, which stacked bars of running totals would hide.
 */
export function AnalysisChart({ data, view, primary, totalGroups, currency, onDrill }: AnalysisChartProps) {
  const series = data.series.map(({ name, values }) => ({ name, values }));
  const omitted = primary ? Math.max(data.omittedSeries, totalGroups - series.length) : 0;
  return (
    <>
      {omitted > 0 ? (
        <Alert severity="info" sx={{ mb: 1 }}>
          The chart shows the {series.length.toLocaleString('en-US')} largest {primary ? groupKeyLabel(primary).toLowerCase() : ''} groups;{' '}
          {omitted.toLocaleString('en-US')} more are left out to stay within 10,000 data points.
        </Alert>
      ) : null}
      <CostChart
        type={view === 'cumulative' ? 'area' : 'bar'}
        categories={data.categories}
        series={series}
        stacked
        zoom
        height={380}
        ariaLabel="Advanced cost chart"
        figuresTable={primary ? 'Cost by group' : 'Cost by period'}
        currency={currency}
        onSelect={primary && onDrill ? onDrill : undefined}
        selectLabel={(label) => `Drill into ${label}`}
      />
    </>
  );
}
