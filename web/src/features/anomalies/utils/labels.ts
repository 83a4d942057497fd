import { formatCurrency, formatPercent } from '@/lib/cost';
import { providerLabel } from '@/lib/cost-filters';
import type { Anomaly, AnomalyStatus } from '../types';

export const STATUS_LABELS: Readonly<Record<AnomalyStatus, string>> = {
  open: 'Open',
  dismissed: 'Dismissed',
  expected: 'Expected',
};

export const STATUS_COLORS: Readonly<Record<AnomalyStatus, 'warning' | 'default' | 'info'>> = {
  open: 'warning',
  dismissed: 'default',
  expected: 'info',
};

type Subject = Pick<Anomaly, 'service' | 'tagKey' | 'tagValue'>;
type Where = Pick<Anomaly, 'accountName' | 'accountId'>;

/** The series: its service, or `tagKey=tagValue` for a tag series (as the notification's title). */
export function subjectLabel(anomaly: Subject): string {
  if (anomaly.service) return anomaly.service;
  return `${anomaly.tagKey ?? ''}=${anomaly.tagValue ?? ''}`;
}

/** The account's name, else its id; null on a tag series (which spans accounts). */
export function accountLabel(anomaly: Where): string | null {
  return anomaly.accountName || anomaly.accountId || null;
}

export function providerText(provider: string | null | undefined): string | null {
  return provider ? providerLabel(provider) : null;
}

/** An amount in the anomaly's own currency (amounts in different currencies are never added). */
export function money(amount: number, currency: string): string {
  return formatCurrency(amount, { currency });
}

/** "+$1,234.00 (+45.2%)"; without the percent when nothing was expected. */
export function impactLabel(anomaly: Pick<Anomaly, 'impact' | 'impactPercent' | 'currency'>): string {
  const amount = `${anomaly.impact > 0 ? '+' : ''}${money(anomaly.impact, anomaly.currency)}`;
  return anomaly.impactPercent === null || anomaly.impactPercent === undefined ? amount : `${amount} (${formatPercent(anomaly.impactPercent)})`;
}

/** "1 day", "3 days". */
export function daysLabel(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}
