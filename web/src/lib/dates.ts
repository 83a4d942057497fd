const longDateUtc = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** "22 November 2026", in UTC like every date in the console. */
export function formatDateUtc(value: Date | number | string): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : longDateUtc.format(date);
}
