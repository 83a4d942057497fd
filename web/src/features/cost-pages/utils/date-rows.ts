import { CHART_DATA_CAP } from '@/lib/cost';

/** One date of the cost visualisation table: its total and, expanded, the amount of each group. */
export interface DateRow {
  date: string;
  total: number;
  groups: Array<{ name: string; amount: number }>;
}

/**
 * Folds the API's rows (one per bucket and group) into one row per date, in date order; the
 * groups of a date are largest first. `label` names a row's group.
 */
export function toDateRows<R extends { timestamp?: string | null; amount: number }>(rows: ReadonlyArray<R>, label: (row: R) => string): DateRow[] {
  const byDate = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const date = row.timestamp ?? '';
    const groups = byDate.get(date) ?? new Map<string, number>();
    const name = label(row);
    groups.set(name, (groups.get(name) ?? 0) + row.amount);
    byDate.set(date, groups);
  }
  return [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, groups]) => {
      const list = [...groups.entries()].map(([name, amount]) => ({ name, amount })).sort((a, b) => b.amount - a.amount);
      return { date, total: list.reduce((sum, g) => sum + g.amount, 0), groups: list };
    });
}

export interface ChartSeries {
  categories: string[];
  series: Array<{ name: string; values: number[] }>;
  /** Groups left out so that series × dates stays within the §9 chart cap (the table keeps them). */
  omittedSeries: number;
}

/**
 * The chart's x axis and one series per group (largest overall first), aligned with the dates;
 * at most `cap` data items (§9: 10000), so the smallest groups are left out of the chart first.
 */
export function toChartSeries(dateRows: ReadonlyArray<DateRow>, cap: number = CHART_DATA_CAP): ChartSeries {
  const totals = new Map<string, number>();
  for (const row of dateRows) for (const g of row.groups) totals.set(g.name, (totals.get(g.name) ?? 0) + g.amount);
  const names = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name);
  const maxSeries = dateRows.length === 0 ? names.length : Math.max(1, Math.floor(cap / dateRows.length));
  const shown = names.slice(0, maxSeries);
  const amounts = dateRows.map((row) => new Map(row.groups.map((g) => [g.name, g.amount])));
  return {
    categories: dateRows.map((row) => row.date),
    series: shown.map((name) => ({ name, values: amounts.map((byName) => byName.get(name) ?? 0) })),
    omittedSeries: names.length - shown.length,
  };
}

/** The exported file's header and rows: one line per date and group (`groupLabel` null: ungrouped). */
export function toCsvTable(dateRows: ReadonlyArray<DateRow>, groupLabel: string | null): { header: string[]; rows: unknown[][] } {
  if (groupLabel === null) {
    return { header: ['Date', 'Amount'], rows: dateRows.map((row) => [row.date, row.total]) };
  }
  return {
    header: ['Date', groupLabel, 'Amount'],
    rows: dateRows.flatMap((row) => row.groups.map((g) => [row.date, g.name, g.amount])),
  };
}
