import {
  COMPARE_MAX_LIMIT,
  UNKNOWN_DIMENSION,
  groupKeyLabel,
  inclusionsToCostType,
  resolveTimeRange,
  toCsv,
  type CompareRequest,
  type CompareResponse,
  type CompareRow,
  type DrillDimension,
  type TimeRange,
} from '@/lib/cost';
import { buildApiFilterGroups } from '@/lib/cost-filters';
import type { CompareSort, CompareState } from '../types';

/** The range compared with when "Compare with" is a custom range; null when it leaves the previous period to the server. */
export function customPreviousRange(state: CompareState): TimeRange | null {
  if (state.compareWith.mode !== 'custom') return null;
  return resolveTimeRange('custom', { startDate: state.compareWith.startDate, endDate: state.compareWith.endDate });
}

export interface CompareRequestWithWarnings {
  body: CompareRequest;
  /** Filters the client left out (the skip rules of the filter system). */
  warnings: string[];
}

/** The POST /v2/cost/compare body of the page's state: every group (up to the API's bound), sorted by change. */
export function compareRequest(state: CompareState, range: Pick<TimeRange, 'start' | 'end'>): CompareRequestWithWarnings {
  const { groups, warnings } = buildApiFilterGroups(state.filters);
  const previous = customPreviousRange(state);
  const costType = inclusionsToCostType(state.inclusions);
  return {
    body: {
      start_time: range.start,
      end_time: range.end,
      ...(previous ? { previous_start_time: previous.start, previous_end_time: previous.end } : {}),
      group_by: state.groupBy,
      filters: groups,
      ...(costType ? { cost_type: costType } : {}),
      order_by: 'change',
      limit: COMPARE_MAX_LIMIT,
      offset: 0,
    },
    warnings,
  };
}

/** A row's name as shown: an account's name with its id, else the key ("Unknown" when empty). */
export function rowLabel(row: Pick<CompareRow, 'key' | 'name'>): string {
  const key = row.key.trim();
  const name = row.name?.trim();
  if (name && key && name !== key) return `${name} (${key})`;
  return name || key || UNKNOWN_DIMENSION;
}

const byLabel = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The rows in the order of `sort`. Change is ranked by its size (rises and falls alike, as the API ranks); rows without a percent come last either way. */
export function sortRows(rows: CompareRow[], sort: CompareSort): CompareRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const tie = (a: CompareRow, b: CompareRow) => byLabel.compare(a.key, b.key);
  const sorted = [...rows];
  sorted.sort((a, b) => {
    switch (sort.key) {
      case 'name':
        return sign * byLabel.compare(rowLabel(a), rowLabel(b)) || tie(a, b);
      case 'previous':
        return sign * (a.previous - b.previous) || tie(a, b);
      case 'current':
        return sign * (a.current - b.current) || tie(a, b);
      case 'change':
        return sign * (Math.abs(a.change) - Math.abs(b.change)) || tie(a, b);
      case 'percent': {
        const pa = a.percent_change ?? null;
        const pb = b.percent_change ?? null;
        if (pa === null && pb === null) return tie(a, b);
        if (pa === null) return 1;
        if (pb === null) return -1;
        return sign * (pa - pb) || tie(a, b);
      }
      default:
        return 0;
    }
  });
  return sorted;
}

/** The first `count` rows in the API's order (largest change first): the chart. */
export function topRows(answer: CompareResponse, count = 10): CompareRow[] {
  return answer.rows.slice(0, count);
}

/** The change % of a CSV line: the unrounded number, or "New" / "—" as the table shows. */
function csvPercent(row: { current: number; previous: number; percent_change?: number | null }): number | string {
  const percent = row.percent_change;
  if (percent !== null && percent !== undefined && Number.isFinite(percent)) return percent;
  return row.previous === 0 && row.current !== 0 ? 'New' : '—';
}

/**
 * The CSV of a comparison: one line per row in the table's order, then the totals. Amounts as
 * numbers; the change % unrounded, or "New" / "—" as on screen.
 */
export function compareCsv(answer: CompareResponse, rows: CompareRow[], dimension: DrillDimension): string {
  const header = [groupKeyLabel(dimension), 'Previous', 'Current', 'Change', 'Change %'];
  const lines = rows.map((row) => [rowLabel(row), row.previous, row.current, row.change, csvPercent(row)]);
  const { totals } = answer;
  lines.push(['Total', totals.previous, totals.current, totals.change, csvPercent(totals)]);
  return toCsv(header, lines);
}
