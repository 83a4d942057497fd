import type { IngestTotal } from '../types';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "12,345" */
export function formatCount(value: number): string {
  return integer.format(value);
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** "1.5 MB" (powers of 1024, one decimal above bytes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** "$1,234.56" for USD; an unknown currency code is written after the number. */
export function formatMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).format(value);
  } catch {
    return `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)} ${currency}`;
  }
}

/** The billed cost of a load, summed per currency: "$1,234.56" or "$10.00 + €5.00"; "—" without totals. */
export function formatBilledTotal(totals: IngestTotal[]): string {
  if (totals.length === 0) return '—';
  const byCurrency = new Map<string, number>();
  for (const total of totals) byCurrency.set(total.currency, (byCurrency.get(total.currency) ?? 0) + total.billed_cost);
  return [...byCurrency].map(([currency, sum]) => formatMoney(sum, currency)).join(' + ');
}

const PROVIDER_LABELS: Record<string, string> = { aws: 'AWS', gcp: 'GCP', azure: 'Azure' };

export function providerLabel(provider: string): string {
  return PROVIDER_LABELS[provider.toLowerCase()] ?? provider;
}

/** "2026-10" from "2026-10-01" or "2026-10-01T00:00:00Z". */
export function billingMonth(periodStart: string): string {
  const match = /^(\d{4}-\d{2})/.exec(periodStart);
  return match ? match[1] : periodStart;
}

const dateTimeUtc = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "22 Nov 2026, 14:05 UTC", in UTC like every date in the console. */
export function formatDateTimeUtc(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${dateTimeUtc.format(date)} UTC`;
}
