/**
 * The inventory's filter state (spec 1 §2.7, §4 Inventory) and the `POST /v1/resource` body it
 * becomes. Empty lists mean All.
 */
import type { ResourceListRequest, TagFilterBody, TagOperator } from './types';
import { DEFAULT_DAYS, FETCH_COUNT, MAX_DAYS_BACK } from './constants';

export type StateFilter = 'all' | 'live' | 'deleted';

export const STATE_OPTIONS: ReadonlyArray<{ value: StateFilter; label: string }> = [
  { value: 'all', label: 'All States' },
  { value: 'live', label: 'Live' },
  { value: 'deleted', label: 'Deleted' },
];

export type DurationPreset = 'last7Days' | 'last30Days' | 'last90Days' | 'last180Days' | 'last365Days' | 'last900Days' | 'custom';

export const DURATION_OPTIONS: ReadonlyArray<{ value: DurationPreset; label: string; days: number }> = [
  { value: 'last7Days', label: 'Last 7 Days', days: 7 },
  { value: 'last30Days', label: 'Last 30 Days', days: DEFAULT_DAYS },
  { value: 'last90Days', label: 'Last 90 Days', days: 90 },
  { value: 'last180Days', label: 'Last 180 Days', days: 180 },
  { value: 'last365Days', label: 'Last 365 Days', days: 365 },
  { value: 'last900Days', label: `Last ${MAX_DAYS_BACK} Days`, days: MAX_DAYS_BACK },
  { value: 'custom', label: 'Custom Range', days: 0 },
];

/** The time-duration picker's window: whole UTC days, `start`/`end` in UNIX seconds. */
export interface TimeWindow {
  preset: DurationPreset;
  /** YYYY-MM-DD of the first and last day. */
  startDate: string;
  endDate: string;
  start: number;
  end: number;
}

export interface TagFilter {
  key: string;
  operator: TagOperator;
  /** Only for Equal / Not Equal. */
  values: string[];
}

export type SearchMode = 'id' | 'attribute';

/** What the search button applied. */
export interface AppliedSearch {
  mode: SearchMode;
  text: string;
  /** The FlatPath of the attribute (attribute mode). */
  param?: string;
}

export interface InventoryFilters {
  accounts: string[];
  regions: string[];
  types: string[];
  state: StateFilter;
  window: TimeWindow;
  search: AppliedSearch | null;
  tags: TagFilter[];
  notTagged: boolean;
}

const DAY_MS = 86_400_000;

function utcDayStart(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

export function dateString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The first day the picker allows: 900 days back, today included. */
export function earliestDate(now: Date = new Date()): string {
  return dateString(utcDayStart(now) - (MAX_DAYS_BACK - 1) * DAY_MS);
}

function windowOf(preset: DurationPreset, firstDay: number, lastDay: number): TimeWindow {
  return {
    preset,
    startDate: dateString(firstDay),
    endDate: dateString(lastDay),
    start: Math.floor(firstDay / 1000),
    end: Math.floor((lastDay + DAY_MS) / 1000) - 1,
  };
}

/** The last `days` days up to today (UTC). */
export function presetWindow(preset: Exclude<DurationPreset, 'custom'>, now: Date = new Date()): TimeWindow {
  const days = DURATION_OPTIONS.find((option) => option.value === preset)?.days ?? DEFAULT_DAYS;
  const today = utcDayStart(now);
  return windowOf(preset, today - (days - 1) * DAY_MS, today);
}

/**
 * A custom window; a start further back than 900 days is moved to the earliest allowed day and
 * an end after today to today. Null when a date cannot be read or the start is after the end.
 */
export function customWindow(startDate: string, endDate: string, now: Date = new Date()): TimeWindow | null {
  const first = Date.parse(`${startDate}T00:00:00Z`);
  const last = Date.parse(`${endDate}T00:00:00Z`);
  if (Number.isNaN(first) || Number.isNaN(last) || first > last) return null;
  const today = utcDayStart(now);
  const earliest = today - (MAX_DAYS_BACK - 1) * DAY_MS;
  const clampedLast = Math.min(last, today);
  const clampedFirst = Math.min(Math.max(first, earliest), clampedLast);
  return windowOf('custom', clampedFirst, clampedLast);
}

export function defaultFilters(now: Date = new Date(), overrides: Partial<InventoryFilters> = {}): InventoryFilters {
  return {
    accounts: [],
    regions: [],
    types: [],
    state: 'all',
    window: presetWindow('last30Days', now),
    search: null,
    tags: [],
    notTagged: false,
    ...overrides,
  };
}

export function takesValues(operator: TagOperator): boolean {
  return operator === 'Equal' || operator === 'NotEqual';
}

/** Comma-separated text → values trimmed, empties dropped. */
export function splitValues(text: string): string[] {
  return text
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/**
 * The filter the row adds. Equal / Not Equal with no value read as the filter panel's rule
 * (spec 1 §5 "empty means the key must exist"): Exists / Not Exists. The server refuses Equal
 * and NotEqual without a value.
 */
export function tagFilterOf(key: string, operator: TagOperator, valueText: string): TagFilter {
  if (!takesValues(operator)) return { key, operator, values: [] };
  const values = splitValues(valueText);
  if (values.length) return { key, operator, values };
  return { key, operator: operator === 'Equal' ? 'Exists' : 'NotExists', values: [] };
}

export function tagFilterBody(filter: TagFilter): TagFilterBody {
  return takesValues(filter.operator)
    ? { name: filter.key, operator: filter.operator, value: filter.values }
    : { name: filter.key, operator: filter.operator };
}

/** The filters as a `POST /v1/resource` body (without count/offset). */
export function filterBody(filters: InventoryFilters): ResourceListRequest {
  const body: ResourceListRequest = {
    start_time: filters.window.start,
    end_time: filters.window.end,
    order_by: 'c_time',
    order_desc: true,
  };
  if (filters.accounts.length) body.account_ids = filters.accounts;
  if (filters.regions.length) body.regions = filters.regions;
  if (filters.types.length) body.resource_types = filters.types;
  if (filters.state === 'live') body.d_time = { eq: 0 };
  if (filters.state === 'deleted') body.d_time = { not_eq: 0 };
  if (filters.search) {
    if (filters.search.mode === 'attribute' && filters.search.param) {
      body.resource_params = [{ name: filters.search.param, eq: filters.search.text }];
    } else {
      body.search = filters.search.text;
    }
  }
  if (filters.tags.length) body.tag = filters.tags.map(tagFilterBody);
  if (filters.notTagged) body.not_tagged = true;
  return body;
}

/** The body of the call that holds table page `page` (0-based): 200 resources per call. */
export function pageBody(filters: InventoryFilters, page: number, pageSize: number): ResourceListRequest {
  const chunk = Math.floor((page * pageSize) / FETCH_COUNT);
  return { ...filterBody(filters), count: FETCH_COUNT, offset: chunk * FETCH_COUNT };
}

/** The rows of table page `page` within the call's answer. */
export function pageSlice<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  const from = (page * pageSize) % FETCH_COUNT;
  return rows.slice(from, from + pageSize);
}

/** The header's count: "200+" above 199. */
export function countLabel(total: number): string {
  return total > 199 ? '200+' : String(total);
}
