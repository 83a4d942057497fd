/**
 * The Compare page's state in the query string, so that a comparison can be shared as a link:
 * `?period=thisMonth&compare=previous&group=service&include=Usage,regular&filters=aws(service=AmazonEC2)&sort=change&dir=desc`.
 *
 * Custom ranges add `from` / `to` (the period) and `pfrom` / `pto` (Compare with: Custom Range),
 * YYYY-MM-DD. `filters` and `include` are written as Advanced Cost writes them (`filters` in the
 * compact form of `lib/cost-filters/url-codec.ts`), so the same text means the same thing on both
 * pages. A query string without any of these parameters is the default state; what a link leaves
 * out takes the default.
 */
import {
  ANALYSIS_PRESETS,
  CHARGE_TYPES,
  DEFAULT_INCLUSIONS,
  DEFAULT_PRESET,
  DIMENSION_OPTIONS,
  escapeToken,
  includedChargeTypes,
  type CostInclusions,
  type DrillDimension,
} from '@/lib/cost';
import { decodeFilters, encodeFilters, rawParams } from '@/lib/cost-filters';
import type { CompareSort, CompareSortKey, CompareState, CompareWith, PeriodChoice } from '../types';

export const COMPARE_URL_PARAMS = ['period', 'from', 'to', 'compare', 'pfrom', 'pto', 'group', 'include', 'filters', 'sort', 'dir'] as const;

/** Sorted by change, largest first: the order the API answers in. */
export const DEFAULT_SORT: CompareSort = { key: 'change', direction: 'desc' };

export const DEFAULT_COMPARE_STATE: CompareState = {
  period: { preset: DEFAULT_PRESET },
  compareWith: { mode: 'previous' },
  groupBy: 'service',
  inclusions: DEFAULT_INCLUSIONS,
  filters: [],
  sort: DEFAULT_SORT,
};

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const SORT_KEYS: CompareSortKey[] = ['name', 'previous', 'current', 'change', 'percent'];

function unescape(token: string): string {
  try {
    return decodeURIComponent(token.replace(/\+/g, ' '));
  } catch {
    return token;
  }
}

function date(value: string | undefined): string | undefined {
  return value && DATE_RE.test(value) ? value : undefined;
}

function decodePeriod(preset: string | undefined, from: string | undefined, to: string | undefined): PeriodChoice {
  if (preset === 'custom') {
    return { preset: 'custom', ...(date(from) ? { startDate: from } : {}), ...(date(to) ? { endDate: to } : {}) };
  }
  const known = ANALYSIS_PRESETS.find((option) => option.value === preset);
  return { preset: known ? known.value : DEFAULT_PRESET };
}

function decodeCompareWith(mode: string | undefined, from: string | undefined, to: string | undefined): CompareWith {
  if (mode !== 'custom') return { mode: 'previous' };
  return { mode: 'custom', ...(date(from) ? { startDate: from } : {}), ...(date(to) ? { endDate: to } : {}) };
}

function decodeInclusions(raw: string): CostInclusions {
  const inclusions: CostInclusions = Object.fromEntries(CHARGE_TYPES.map(({ value }) => [value, false]));
  for (const name of raw.split(',').map(unescape).filter(Boolean)) inclusions[name] = true;
  return inclusions;
}

function isGroup(value: string | undefined): value is DrillDimension {
  // One dimension only: Ungrouped has nothing to compare row by row.
  return DIMENSION_OPTIONS.some((option) => option.value === value);
}

/** The query string (with its `?`) of a state. */
export function encodeCompareSearch(state: CompareState): string {
  const parts = [`period=${escapeToken(state.period.preset)}`];
  if (state.period.preset === 'custom') {
    if (state.period.startDate) parts.push(`from=${state.period.startDate}`);
    if (state.period.endDate) parts.push(`to=${state.period.endDate}`);
  }
  parts.push(`compare=${state.compareWith.mode}`);
  if (state.compareWith.mode === 'custom') {
    if (state.compareWith.startDate) parts.push(`pfrom=${state.compareWith.startDate}`);
    if (state.compareWith.endDate) parts.push(`pto=${state.compareWith.endDate}`);
  }
  parts.push(`group=${state.groupBy}`);
  parts.push(`include=${includedChargeTypes(state.inclusions).map(escapeToken).join(',')}`);
  const filters = encodeFilters(state.filters);
  if (filters) parts.push(`filters=${filters}`);
  parts.push(`sort=${state.sort.key}`, `dir=${state.sort.direction}`);
  return `?${parts.join('&')}`;
}

/** The state a query string describes; the default state when it has none of the page's parameters. */
export function decodeCompareSearch(search: string, now: Date = new Date()): CompareState {
  const params = new Map(rawParams(search));
  if (!COMPARE_URL_PARAMS.some((name) => params.has(name))) return DEFAULT_COMPARE_STATE;
  const value = (name: string) => (params.has(name) ? unescape(params.get(name)!) : undefined);
  const group = value('group');
  const sortKey = value('sort') as CompareSortKey | undefined;
  const include = params.get('include');
  const filters = params.get('filters');
  return {
    period: decodePeriod(value('period'), value('from'), value('to')),
    compareWith: decodeCompareWith(value('compare'), value('pfrom'), value('pto')),
    groupBy: isGroup(group) ? group : DEFAULT_COMPARE_STATE.groupBy,
    inclusions: include === undefined ? DEFAULT_INCLUSIONS : decodeInclusions(include),
    filters: filters ? decodeFilters(filters, now) : [],
    sort:
      sortKey && SORT_KEYS.includes(sortKey)
        ? { key: sortKey, direction: value('dir') === 'asc' ? 'asc' : 'desc' }
        : DEFAULT_SORT,
  };
}
