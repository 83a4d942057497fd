/** Alert thresholds (spec 2 §2 Alerts panel, §4 ALERTS filter). */
import { formatUsd } from './format';
import { percentUsed } from './health';
import type { AlertThreshold, Budget } from './types';

/** Reached means at or above: a percentage against the percentage used, an absolute value against the spend. */
export function isAlertReached(alert: AlertThreshold, spent: number, amount: number): boolean {
  if (alert.thresholdType === 'Percentage') return percentUsed(spent, amount) >= alert.thresholdValue;
  return spent >= alert.thresholdValue;
}

export function reachedAlerts(budget: Pick<Budget, 'alerts' | 'currentSpent' | 'amount'>): AlertThreshold[] {
  return budget.alerts.filter((alert) => isAlertReached(alert, budget.currentSpent, budget.amount));
}

/** '75%' for a percentage threshold, '$4,500' for an absolute one. */
export function alertLabel(alert: AlertThreshold): string {
  return alert.thresholdType === 'Percentage' ? `${alert.thresholdValue}%` : formatUsd(alert.thresholdValue);
}
