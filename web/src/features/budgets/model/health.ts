/** Budget health (spec 2 §4 "Budget health"): the readings differ between the dashboard and the detail page. */
import type { Budget } from './types';

/** Dashboard, cards and summary strip: healthy < 75 <= warning < 90 <= critical. */
export type DashboardStatus = 'healthy' | 'warning' | 'critical';
/** Detail page: healthy < 75 <= warning <= 100 < exceeded. */
export type DetailStatus = 'exceeded' | 'warning' | 'healthy';

const WARNING_PERCENT = 75;
const CRITICAL_PERCENT = 90;
const EXCEEDED_PERCENT = 100;

/** Percentage of the amount spent, unrounded; 0 when the amount is not positive. */
export function percentUsed(spent: number, amount: number): number {
  if (!(amount > 0) || !Number.isFinite(spent)) return 0;
  return (spent / amount) * 100;
}

/** The percentage used of a budget, computed on the client (spec 2 §3 "The client adds percentUsed"). */
export function budgetPercentUsed(budget: Pick<Budget, 'currentSpent' | 'amount'>): number {
  return percentUsed(budget.currentSpent, budget.amount);
}

export function dashboardStatus(percent: number): DashboardStatus {
  if (percent >= CRITICAL_PERCENT) return 'critical';
  if (percent >= WARNING_PERCENT) return 'warning';
  return 'healthy';
}

/** The dashboard's 'Exceeded' label: 100% or more. */
export function isExceeded(percent: number): boolean {
  return percent >= EXCEEDED_PERCENT;
}

/** The detail page's reading: only strictly over 100% is exceeded. */
export function detailStatus(percent: number): DetailStatus {
  if (percent > EXCEEDED_PERCENT) return 'exceeded';
  if (percent >= WARNING_PERCENT) return 'warning';
  return 'healthy';
}

export const DETAIL_STATUS_LABEL: Record<DetailStatus, string> = {
  exceeded: 'Exceeded Budget',
  warning: 'Approaching Limit',
  healthy: 'On Track',
};

/**
 * MUI colour of a progress bar: red from 90, yellow from 75, green below. When `spent` is given
 * (the detail page) and is zero, the bar is grey ('inherit').
 */
export function barColor(percent: number, spent?: number): 'error' | 'warning' | 'success' | 'inherit' {
  if (spent !== undefined && spent === 0) return 'inherit';
  if (percent >= CRITICAL_PERCENT) return 'error';
  if (percent >= WARNING_PERCENT) return 'warning';
  return 'success';
}
