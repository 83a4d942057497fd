import type { CostRow, GroupKey } from '@/lib/cost';
import type { GroupingState, ViewType } from '../types';
import { TABLE_COMBINATION_CAP, TABLE_PERIOD_CAP } from './build-request';
import type { ChartData } from './chart-data';
import { groupLabel } from './group-label';
import { periodLabel } from './periods';

type Dimension = Exclude<GroupKey, 'none'>;

export interface GroupTableRow {
  key: string;
  /** One label per chosen dimension, in their order. */
  values: string[];
  amount: number;
  /** Percent of the period's total; null when the total is 0. */
  share: number | null;
}

export interface PeriodTableRow {
  key: string;
  period: string;
  amount: number;
  share: number | null;
}

export interface Capped<T> {
  rows: T[];
  /** How many there were before the cap (at least; more groups may exist beyond the API page). */
  total: number;
  truncated: boolean;
}

function share(amount: number, total: number): number | null {
  return total === 0 ? null : (amount / total) * 100;
}

/** Leaf combinations of the answer, whether flat or nested (`children`, hierarchy form). */
function collectLeaves(rows: CostRow[], dimensions: Dimension[], parents: string[], out: Array<{ values: string[]; amount: number }>) {
  for (const row of rows) {
    const values = [...parents, groupLabel(row, dimensions[parents.length])];
    if (row.children?.length && values.length < dimensions.length) {
      collectLeaves(row.children, dimensions, values, out);
    } else {
      // A flat row (or a nested one without children) names the remaining dimensions itself.
      const rest = dimensions.slice(values.length).map((d) => groupLabel(row, d));
      out.push({ values: [...values, ...rest], amount: row.amount });
    }
  }
}

/**
 * One row per combination of the chosen dimensions with its total and share of the period's
 * total (`summary.accrued_cost`), at most 1000 (§9), in the API's order (largest first).
 */
export function groupTableRows(
  rows: CostRow[],
  dimensions: Dimension[],
  periodTotal: number,
  totalGroups: number,
): Capped<GroupTableRow> {
  const leaves: Array<{ values: string[]; amount: number }> = [];
  collectLeaves(rows, dimensions, [], leaves);
  const isFlat = !rows.some((row) => row.children?.length);
  const total = Math.max(leaves.length, isFlat ? totalGroups : leaves.length);
  const kept = leaves.slice(0, TABLE_COMBINATION_CAP).map((leaf, index) => ({
    key: `${index}:${leaf.values.join('\u0000')}`,
    values: leaf.values,
    amount: leaf.amount,
    share: share(leaf.amount, periodTotal),
  }));
  const moreTopGroups = !isFlat && totalGroups > rows.length;
  return { rows: kept, total, truncated: kept.length < total || moreTopGroups };
}

/**
 * Ungrouped: one row per period, at most 365 (§9). For Cumulative the amount is the running
 * total, which has no share.
 */
export function periodTableRows(chart: ChartData, view: ViewType, periodTotal: number): Capped<PeriodTableRow> {
  const values = chart.series[0]?.values ?? [];
  const rows = chart.periods.map((period, index) => ({
    key: period,
    period: periodLabel(period, view),
    amount: values[index] ?? 0,
    share: view === 'cumulative' ? null : share(values[index] ?? 0, periodTotal),
  }));
  return { rows: rows.slice(0, TABLE_PERIOD_CAP), total: rows.length, truncated: rows.length > TABLE_PERIOD_CAP };
}

/** The rows in the order of the grouping state's sortConfig (by cost, or by a dimension's name). */
export function sortGroupRows(rows: GroupTableRow[], sort: GroupingState['sortConfig'], dimensions: Dimension[]): GroupTableRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const column = sort.field === 'cost' ? -1 : dimensions.indexOf(sort.field);
  return [...rows].sort((a, b) => {
    if (column < 0) return sign * (a.amount - b.amount);
    return sign * a.values[column].localeCompare(b.values[column]) || b.amount - a.amount;
  });
}
