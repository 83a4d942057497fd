/** The text alternative of a cost chart: what it draws, over what, and where its figures are. */
import { formatDayLabel, parseDateString } from '@/lib/cost/time-range';
import type { CostChartData } from './chart-option';

const TYPE_NAMES = { line: 'Line chart', area: 'Area chart', bar: 'Bar chart', pie: 'Pie chart' } as const;
/** Series named in the description; the rest are counted ("and 7 more"). */
const NAMED_SERIES = 5;

/** Whether every category is a YYYY-MM-DD day (the time axis of the cost pages). */
export function categoriesAreDays(categories: readonly string[]): boolean {
  return categories.length > 0 && categories.every((category) => parseDateString(category) !== null);
}

/** A category as the figures table shows it: "Nov 3, 2026" for a day, else as it is. */
export function categoryLabel(category: string): string {
  return parseDateString(category) ? formatDayLabel(category) : category;
}

function namesOf(names: readonly string[]): string {
  if (names.length <= NAMED_SERIES) return names.join(', ');
  return `${names.slice(0, NAMED_SERIES).join(', ')} and ${names.length - NAMED_SERIES} more`;
}

function overWhat(categories: readonly string[]): string {
  if (categories.length === 0) return '';
  const [first, last] = [categories[0], categories[categories.length - 1]];
  if (categoriesAreDays(categories)) {
    const days = `${categories.length} ${categories.length === 1 ? 'day' : 'days'}`;
    return first === last ? ` on ${formatDayLabel(first)}` : ` over ${days}, ${formatDayLabel(first)} – ${formatDayLabel(last)}`;
  }
  return categories.length === 1 ? ` for ${first}` : ` over ${categories.length} categories, ${first} to ${last}`;
}

/**
 * E.g. "Stacked bar chart over 3 days, Nov 1, 2026 – Nov 3, 2026; 2 series: AmazonEC2, Cloud
 * Storage. Each series' total is in the table “Daily cost data”; the figures of each day are in
 * the table “Daily cost figures”." `figuresTable` names a table elsewhere on the page that holds
 * the chart's figures (then the chart has no figures table of its own).
 */
export function describeChart(
  data: Pick<CostChartData, 'type' | 'categories' | 'series' | 'stacked'>,
  tables: { totals: string; figures?: string; figuresElsewhere?: string },
): string {
  const names = data.series.map((series) => series.name);
  if (data.type === 'pie') {
    const slices = `${names.length} ${names.length === 1 ? 'slice' : 'slices'}`;
    return `Pie chart of ${slices}: ${namesOf(names)}. Each slice's amount is in the table “${tables.totals}”.`;
  }
  const kind = data.stacked ? `Stacked ${TYPE_NAMES[data.type].toLowerCase()}` : TYPE_NAMES[data.type];
  const seriesPart = `${names.length} series: ${namesOf(names)}`;
  const where = tables.figuresElsewhere
    ? `The figures are in the table “${tables.figuresElsewhere}” on this page.`
    : tables.figures
      ? `Each series' total is in the table “${tables.totals}”; the figures of each ${categoriesAreDays(data.categories) ? 'day' : 'category'} are in the table “${tables.figures}”.`
      : `Each series' total is in the table “${tables.totals}”.`;
  return `${kind}${overWhat(data.categories)}; ${seriesPart}. ${where}`;
}
