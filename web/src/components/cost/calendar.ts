/** Month grids of the custom range dialog, in UTC days written YYYY-MM-DD. */
import { parseDateString, toDateString } from '@/lib/cost/time-range';

export interface CalendarMonth {
  year: number;
  /** 0-based. */
  month: number;
}

export const WEEKDAYS: ReadonlyArray<{ short: string; long: string }> = [
  { short: 'Mo', long: 'Monday' },
  { short: 'Tu', long: 'Tuesday' },
  { short: 'We', long: 'Wednesday' },
  { short: 'Th', long: 'Thursday' },
  { short: 'Fr', long: 'Friday' },
  { short: 'Sa', long: 'Saturday' },
  { short: 'Su', long: 'Sunday' },
];

const monthTitle = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayName = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export function monthOf(day: string): CalendarMonth {
  const date = parseDateString(day) ?? new Date();
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() };
}

export function shiftMonth({ year, month }: CalendarMonth, by: number): CalendarMonth {
  const date = new Date(Date.UTC(year, month + by, 1));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() };
}

export function compareMonths(a: CalendarMonth, b: CalendarMonth): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

/** "November 2026". */
export function formatMonthTitle({ year, month }: CalendarMonth): string {
  return monthTitle.format(new Date(Date.UTC(year, month, 1)));
}

/** "Monday, November 23, 2026" (a day button's accessible name). */
export function formatDayName(day: string): string {
  const date = parseDateString(day);
  return date ? dayName.format(date) : day;
}

/** The month's days as weeks starting on Monday; null pads the first and last week. */
export function monthWeeks({ year, month }: CalendarMonth): Array<Array<string | null>> {
  const first = new Date(Date.UTC(year, month, 1));
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: Array<string | null> = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= daysInMonth; day += 1) cells.push(toDateString(new Date(Date.UTC(year, month, day))));
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: Array<Array<string | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** Days from `start` to `end`, both included (0 when either is missing or start is after end). */
export function daysBetween(start: string | undefined, end: string | undefined): number {
  const first = parseDateString(start);
  const last = parseDateString(end);
  if (!first || !last || first > last) return 0;
  return Math.round((last.getTime() - first.getTime()) / 86_400_000) + 1;
}
