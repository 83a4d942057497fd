/**
 * The Spending Trend's date range (spec 2 §2 quick ranges, §5 "Spending date range", §9 default
 * last 90 days, at most 730 days). UTC days written YYYY-MM-DD; the quick ranges end today.
 */
import { parseDateString, resolveTimeRange, toApiDate, toDateString } from '@/lib/cost/time-range';

export type SpendingRangePreset = 'last7Days' | 'last30Days' | 'last90Days' | 'thisMonth' | 'thisQuarter' | 'thisYear' | 'custom';

export const SPENDING_RANGE_PRESETS: ReadonlyArray<{ value: SpendingRangePreset; label: string }> = [
  { value: 'last7Days', label: 'Last 7 Days' },
  { value: 'last30Days', label: 'Last 30 Days' },
  { value: 'last90Days', label: 'Last 90 Days' },
  { value: 'thisMonth', label: 'This Month' },
  { value: 'thisQuarter', label: 'This Quarter' },
  { value: 'thisYear', label: 'This Year' },
  { value: 'custom', label: 'Custom' },
];

export type QuickRangePreset = Exclude<SpendingRangePreset, 'custom'>;

export const DEFAULT_SPENDING_PRESET: QuickRangePreset = 'last90Days';

/** §9: the longest range, in days from start to end (exactly 730 apart is allowed, as on the server). */
export const MAX_SPENDING_RANGE_DAYS = 730;

export interface SpendingRange {
  preset: SpendingRangePreset;
  startDate: string;
  endDate: string;
}

/** The days of a quick range at `now` (the shared cost presets, which are UTC). */
export function quickRange(preset: QuickRangePreset, now: Date = new Date()): SpendingRange {
  const range = resolveTimeRange(preset, undefined, now);
  return { preset, startDate: toApiDate(range.start), endDate: toApiDate(range.end) };
}

export const SPENDING_RANGE_MESSAGES = {
  required: 'Both start and end dates are required',
  format: 'Invalid date format',
  values: 'Invalid date values',
  startAfterEnd: 'Start date cannot be after end date',
  startInFuture: 'Start date cannot be in the future',
  tooLong: 'Date range cannot exceed 2 years',
} as const;

const SHAPE = /^\d{4}-\d{2}-\d{2}$/;

function parseDay(value: string): { date: Date } | { error: string } {
  if (!SHAPE.test(value)) return { error: SPENDING_RANGE_MESSAGES.format };
  const date = parseDateString(value);
  return date ? { date } : { error: SPENDING_RANGE_MESSAGES.values };
}

/**
 * The first broken §5 rule of a custom range, in the server's order, or null when it is valid.
 * The end may lie in the future (the rest of the current period); the start may not.
 */
export function validateSpendingRange(startDate: string, endDate: string, now: Date = new Date()): string | null {
  const start = startDate.trim();
  const end = endDate.trim();
  if (!start || !end) return SPENDING_RANGE_MESSAGES.required;
  const first = parseDay(start);
  if ('error' in first) return first.error;
  const last = parseDay(end);
  if ('error' in last) return last.error;
  if (first.date > last.date) return SPENDING_RANGE_MESSAGES.startAfterEnd;
  if (start > toDateString(now)) return SPENDING_RANGE_MESSAGES.startInFuture;
  const days = Math.round((last.date.getTime() - first.date.getTime()) / 86_400_000);
  if (days > MAX_SPENDING_RANGE_DAYS) return SPENDING_RANGE_MESSAGES.tooLong;
  return null;
}
