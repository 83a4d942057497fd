/**
 * Budget health (spec 2 §4 "Budget health"). The server computes every reading, exactly on the
 * cents (docs/API-BUDGETS.md): `status` for the dashboard, cards and summary (critical from 90,
 * warning from 75), `detailStatus` for the detail page (exceeded over 100) and `exceeded`. Here
 * is only what each reading looks like.
 */
import type { BudgetHealth, DetailStatus } from './types';

/** Dashboard, cards and summary strip: healthy < 75 <= warning < 90 <= critical. */
export type DashboardStatus = BudgetHealth;
export type { DetailStatus };

export const DETAIL_STATUS_LABEL: Record<DetailStatus, string> = {
  exceeded: 'Exceeded Budget',
  warning: 'Approaching Limit',
  healthy: 'On Track',
};

const BAR_COLOR: Record<DashboardStatus, 'error' | 'warning' | 'success'> = {
  critical: 'error',
  warning: 'warning',
  healthy: 'success',
};

/**
 * MUI colour of a progress bar for the server's dashboard status: red when critical, yellow
 * when warning, green when healthy. When `spent` is given (the detail page) and is zero, the
 * bar is grey ('inherit').
 */
export function barColor(status: DashboardStatus, spent?: number): 'error' | 'warning' | 'success' | 'inherit' {
  if (spent !== undefined && spent === 0) return 'inherit';
  return BAR_COLOR[status];
}

/** Where a dollar value sits on a budget's bar, in percent of the amount (0 without an amount). */
export function percentOfAmount(value: number, amount: number): number {
  if (!(amount > 0) || !Number.isFinite(value)) return 0;
  return (value / amount) * 100;
}
