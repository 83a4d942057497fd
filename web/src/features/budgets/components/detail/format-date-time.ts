const dateTimeUtc = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** "23 Nov 2026, 10:05 UTC": when a change happened, in UTC like every date in the console. */
export function formatDateTimeUtc(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${dateTimeUtc.format(date)} UTC`;
}
