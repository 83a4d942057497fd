/** How a chart point's days are written: 'Nov 23, 2026' or 'Nov 1, 2026 – Nov 7, 2026' (UTC). */
import { formatDayLabel } from '@/lib/cost/time-range';

export function daysLabel({ startDate, endDate }: { startDate: string; endDate: string }): string {
  return startDate === endDate ? formatDayLabel(startDate) : `${formatDayLabel(startDate)} – ${formatDayLabel(endDate)}`;
}
