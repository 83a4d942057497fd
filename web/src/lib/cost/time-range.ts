/**
 * Time ranges of the cost screens (spec 1 §2.5, §4, §9). Every date is UTC: a range starts at
 * 00:00:00.000 of its first day and ends at 23:59:59.999 of its last day.
 */

export type TimeRangePreset =
  | 'today'
  | 'yesterday'
  | 'last7Days'
  | 'last30Days'
  | 'last90Days'
  | 'thisMonth'
  | 'lastMonth'
  | 'thisYear'
  | 'lastYear'
  | 'custom'
  // Other screens (§4); 'lastWeek' is read as an alias of 'last7Days'.
  | 'thisWeek'
  | 'thisQuarter'
  | 'lastQuarter'
  | 'last_6_months'
  | 'year_to_date';

export interface TimeRange {
  preset: TimeRangePreset;
  /** YYYY-MM-DD, custom ranges only. */
  startDate?: string;
  /** YYYY-MM-DD, custom ranges only. */
  endDate?: string;
  /** ISO date-time of the first millisecond. */
  start: string;
  /** ISO date-time of the last millisecond. */
  end: string;
}

export interface PresetOption {
  value: TimeRangePreset;
  label: string;
}

/** The period presets of the Advanced cost analysis screen (§2.5), in order. */
export const ANALYSIS_PRESETS: ReadonlyArray<PresetOption> = [
  { value: 'today', label: 'Today' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: 'last7Days', label: 'Last 7 Days' },
  { value: 'last30Days', label: 'Last 30 Days' },
  { value: 'last90Days', label: 'Last 90 Days' },
  { value: 'thisMonth', label: 'This Month' },
  { value: 'lastMonth', label: 'Last Month' },
  { value: 'thisYear', label: 'This Year' },
  { value: 'lastYear', label: 'Last Year' },
  { value: 'custom', label: 'Custom Range' },
];

/** A label for every preset, including those only other screens offer. */
export const PRESET_LABELS: Readonly<Record<TimeRangePreset, string>> = {
  today: 'Today',
  yesterday: 'Yesterday',
  last7Days: 'Last 7 Days',
  last30Days: 'Last 30 Days',
  last90Days: 'Last 90 Days',
  thisMonth: 'This Month',
  lastMonth: 'Last Month',
  thisYear: 'This Year',
  lastYear: 'Last Year',
  custom: 'Custom Range',
  thisWeek: 'This Week',
  thisQuarter: 'This Quarter',
  lastQuarter: 'Last Quarter',
  last_6_months: 'Last 6 Months',
  year_to_date: 'Year to Date',
};

/**
 * Advanced Cost's Period list: the §2.5 presets with This Quarter and Last Quarter after the
 * months (issue 16 "Few clicks, measured": a quarter in two clicks instead of the range dialog).
 * The other screens keep the §2.5 list (`ANALYSIS_PRESETS`).
 */
export const ADVANCED_COST_PRESETS: ReadonlyArray<PresetOption> = ANALYSIS_PRESETS.flatMap<PresetOption>((option) =>
  option.value === 'lastMonth'
    ? [option, { value: 'thisQuarter', label: PRESET_LABELS.thisQuarter }, { value: 'lastQuarter', label: PRESET_LABELS.lastQuarter }]
    : [option],
);

/** The default period of the cost screens (§9). */
export const DEFAULT_PRESET: TimeRangePreset = 'thisMonth';

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 00:00:00.000 UTC of the given (possibly overflowing) year, month (0-based) and day. */
function utcDay(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month, day));
}

function startOfUtcDay(date: Date): Date {
  return utcDay(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

function addUtcDays(day: Date, days: number): Date {
  return utcDay(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + days);
}

/** The same day `months` months away, clamped to the last day of a shorter month. */
function addUtcMonths(day: Date, months: number): Date {
  const year = day.getUTCFullYear();
  const month = day.getUTCMonth() + months;
  const lastDay = utcDay(year, month + 1, 0).getUTCDate();
  return utcDay(year, month, Math.min(day.getUTCDate(), lastDay));
}

/** YYYY-MM-DD of a UTC date. */
export function toDateString(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A YYYY-MM-DD string as 00:00 UTC of that day, or null when it is not a real date. */
export function parseDateString(value: string | undefined | null): Date | null {
  if (!value) return null;
  const match = DATE_RE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const date = utcDay(year, month, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month || date.getUTCDate() !== day) return null;
  return date;
}

/** The range from the start of `first` to the end of `last` (both UTC days). */
function span(preset: TimeRangePreset, first: Date, last: Date, custom?: { startDate: string; endDate: string }): TimeRange {
  const range: TimeRange = {
    preset,
    start: first.toISOString(),
    end: new Date(last.getTime() + DAY_MS - 1).toISOString(),
  };
  if (custom) {
    range.startDate = custom.startDate;
    range.endDate = custom.endDate;
  }
  return range;
}

function quarterStart(day: Date, offset = 0): Date {
  return utcDay(day.getUTCFullYear(), Math.floor(day.getUTCMonth() / 3) * 3 + offset * 3, 1);
}

function resolvePreset(preset: TimeRangePreset, today: Date): TimeRange | null {
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  switch (preset) {
    case 'today':
      return span(preset, today, today);
    case 'yesterday': {
      const yesterday = addUtcDays(today, -1);
      return span(preset, yesterday, yesterday);
    }
    case 'last7Days':
      return span(preset, addUtcDays(today, -6), today);
    case 'last30Days':
      return span(preset, addUtcDays(today, -29), today);
    case 'last90Days':
      return span(preset, addUtcDays(today, -89), today);
    case 'thisWeek': {
      const sinceMonday = (today.getUTCDay() + 6) % 7;
      return span(preset, addUtcDays(today, -sinceMonday), today);
    }
    case 'thisMonth':
      return span(preset, utcDay(year, month, 1), today);
    case 'lastMonth':
      return span(preset, utcDay(year, month - 1, 1), utcDay(year, month, 0));
    case 'thisQuarter':
      return span(preset, quarterStart(today), today);
    case 'lastQuarter':
      return span(preset, quarterStart(today, -1), addUtcDays(quarterStart(today), -1));
    case 'last_6_months':
      return span(preset, addUtcDays(addUtcMonths(today, -6), 1), today);
    case 'thisYear':
    case 'year_to_date':
      return span(preset, utcDay(year, 0, 1), today);
    case 'lastYear':
      return span(preset, utcDay(year - 1, 0, 1), utcDay(year - 1, 11, 31));
    default:
      return null;
  }
}

/**
 * The range of a preset at `now` (§4). "lastWeek" is "last7Days". An unknown preset falls back to
 * "thisMonth" with a console warning. A custom range takes its missing dates from today; an
 * invalid custom range (unreadable date, start after end) logs a warning and gives today.
 */
export function resolveTimeRange(
  preset: string,
  custom?: { startDate?: string; endDate?: string },
  now: Date = new Date(),
): TimeRange {
  const today = startOfUtcDay(now);
  if (preset === 'lastWeek') return resolveTimeRange('last7Days', undefined, now);
  if (preset === 'custom') {
    const startDate = custom?.startDate || toDateString(today);
    const endDate = custom?.endDate || toDateString(today);
    const first = parseDateString(startDate);
    const last = parseDateString(endDate);
    if (!first || !last || first.getTime() > last.getTime()) {
      console.warn(`Invalid custom time range ${startDate} – ${endDate}; using today`);
      return span('today', today, today);
    }
    return span('custom', first, last, { startDate, endDate });
  }
  const resolved = resolvePreset(preset as TimeRangePreset, today);
  if (resolved) return resolved;
  console.warn(`Unknown time range preset "${preset}"; using thisMonth`);
  return span('thisMonth', utcDay(today.getUTCFullYear(), today.getUTCMonth(), 1), today);
}

/** A custom range covering the given UTC days. */
function customSpan(first: Date, last: Date): TimeRange {
  return span('custom', first, last, { startDate: toDateString(first), endDate: toDateString(last) });
}

/**
 * The period a range is compared with (§9): the whole previous month for this/last month, the
 * previous quarter for this/last quarter, the previous year for this/last year and year to date;
 * otherwise the period of the same length immediately before. The answer is a custom range.
 */
export function previousTimeRange(range: TimeRange, _now?: Date): TimeRange {
  const first = startOfUtcDay(new Date(range.start));
  const year = first.getUTCFullYear();
  const month = first.getUTCMonth();
  switch (range.preset) {
    case 'thisMonth':
    case 'lastMonth':
      return customSpan(utcDay(year, month - 1, 1), utcDay(year, month, 0));
    case 'thisQuarter':
    case 'lastQuarter':
      return customSpan(quarterStart(first, -1), addUtcDays(quarterStart(first), -1));
    case 'thisYear':
    case 'lastYear':
    case 'year_to_date':
      return customSpan(utcDay(year - 1, 0, 1), utcDay(year - 1, 11, 31));
    default: {
      const days = rangeDays(range);
      return customSpan(addUtcDays(first, -days), addUtcDays(first, -1));
    }
  }
}

const shortDateUtc = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** "Nov 23, 2026" for an ISO date-time or a YYYY-MM-DD day (UTC). */
export function formatDayLabel(value: string): string {
  const date = parseDateString(value) ?? new Date(value);
  return Number.isNaN(date.getTime()) ? '' : shortDateUtc.format(date);
}

/** "Nov 1, 2026 – Nov 23, 2026" (UTC). */
export function formatRangeLabel(range: TimeRange): string {
  return `${formatDayLabel(range.start)} – ${formatDayLabel(range.end)}`;
}

/** How many UTC days the range covers (both ends included). */
export function rangeDays(range: Pick<TimeRange, 'start' | 'end'>): number {
  const first = startOfUtcDay(new Date(range.start)).getTime();
  const last = startOfUtcDay(new Date(range.end)).getTime();
  return Math.round((last - first) / DAY_MS) + 1;
}

/** The UTC day (YYYY-MM-DD) of an ISO date-time. */
export function toApiDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso.slice(0, 10) : toDateString(date);
}
