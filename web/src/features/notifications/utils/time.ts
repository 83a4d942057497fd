import { formatDistance } from 'date-fns';

const dateTimeUtc = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

function parse(value: string): Date | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "22 Nov 2026, 14:05 UTC", in UTC like every date in the console. */
export function formatDateTimeUtc(value: string): string {
  const date = parse(value);
  return date ? `${dateTimeUtc.format(date)} UTC` : value;
}

/** "5 minutes ago", "in 2 minutes". */
export function formatRelative(value: string, now: Date = new Date()): string {
  const date = parse(value);
  if (!date) return value;
  return formatDistance(date, now, { addSuffix: true });
}
