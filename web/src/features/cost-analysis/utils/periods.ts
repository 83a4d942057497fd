import { formatDayLabel } from '@/lib/cost';
import type { ViewType } from '../types';

const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * The period a day of the API's answer falls in for the view: its ISO week (Monday, UTC) for the
 * Weekly view, never before the range's first day; the day itself otherwise (the Monthly view's
 * answer already comes per month).
 */
export function periodKey(timestamp: string, view: ViewType, rangeStartDay: string): string {
  if (view !== 'weekly') return timestamp;
  const day = new Date(`${timestamp}T00:00:00.000Z`);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  const monday = new Date(day.getTime() - sinceMonday * 86_400_000).toISOString().slice(0, 10);
  return monday < rangeStartDay ? rangeStartDay : monday;
}

/** How a period is named on the chart's axis. */
export function axisLabel(key: string, view: ViewType): string {
  return view === 'monthly' ? monthLabel.format(new Date(`${key}T00:00:00.000Z`)) : key;
}

/** How a period is named in the table and the export. */
export function periodLabel(key: string, view: ViewType): string {
  if (view === 'monthly') return monthLabel.format(new Date(`${key}T00:00:00.000Z`));
  if (view === 'weekly') return `Week of ${formatDayLabel(key)}`;
  return formatDayLabel(key);
}
