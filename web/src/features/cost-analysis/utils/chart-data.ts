import type { CostRow, GroupKey } from '@/lib/cost';
import type { ViewType } from '../types';
import { CHART_DATA_CAP } from './build-request';
import { groupLabel } from './group-label';
import { axisLabel, periodKey } from './periods';

/** The name of the single series of an ungrouped answer. */
export const TOTAL_SERIES = 'Total cost';

export interface ChartData {
  /** Period keys (YYYY-MM-DD of the period's first day), oldest first. */
  periods: string[];
  /** Axis labels, aligned with `periods`. */
  categories: string[];
  series: Array<{ name: string; values: number[]; total: number }>;
  /** Series left out to keep groups × periods within the chart cap. */
  omittedSeries: number;
}

/**
 * The API's rows as chart series stacked by the primary group: one series per group value, one
 * value per period (days summed into weeks for the Weekly view). Series are ordered by their
 * total, largest first (for Cumulative, by their last running total).
 */
export function buildChartData(
  rows: CostRow[],
  view: ViewType,
  rangeStartDay: string,
  primary: GroupKey | undefined,
): ChartData {
  const byGroup = new Map<string, Map<string, number>>();
  const periodSet = new Set<string>();
  for (const row of rows) {
    if (!row.timestamp) continue;
    const period = periodKey(row.timestamp, view, rangeStartDay);
    periodSet.add(period);
    const name = primary && primary !== 'none' ? groupLabel(row, primary) : TOTAL_SERIES;
    const values = byGroup.get(name) ?? new Map<string, number>();
    values.set(period, (values.get(period) ?? 0) + row.amount);
    byGroup.set(name, values);
  }
  const periods = [...periodSet].sort();
  let series = [...byGroup.entries()].map(([name, values]) => {
    const aligned = periods.map((period) => values.get(period) ?? 0);
    const total = view === 'cumulative' ? (aligned[aligned.length - 1] ?? 0) : aligned.reduce((sum, v) => sum + v, 0);
    return { name, values: aligned, total };
  });
  series.sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  const maxSeries = periods.length === 0 ? series.length : Math.max(1, Math.floor(CHART_DATA_CAP / periods.length));
  const omittedSeries = Math.max(0, series.length - maxSeries);
  series = series.slice(0, maxSeries);
  return { periods, categories: periods.map((period) => axisLabel(period, view)), series, omittedSeries };
}
