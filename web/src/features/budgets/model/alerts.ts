/** Alert thresholds (spec 2 §2 Alerts panel, §4 ALERTS filter). */
import { formatUsd } from './format';
import type { AlertThreshold, Budget } from './types';

/**
 * Reached now, as the server answers it in `reachedAlerts` (a percentage against the percentage
 * used, an absolute value against the spend, compared exactly on the cents).
 */
export function isAlertReached(alert: AlertThreshold, budget: Pick<Budget, 'reachedAlerts'>): boolean {
  return budget.reachedAlerts.some(
    (reached) => reached.thresholdType === alert.thresholdType && reached.thresholdValue === alert.thresholdValue,
  );
}

export function reachedAlerts(budget: Pick<Budget, 'reachedAlerts'>): AlertThreshold[] {
  return budget.reachedAlerts;
}

/** '75%' for a percentage threshold, '$4,500' for an absolute one. */
export function alertLabel(alert: AlertThreshold): string {
  return alert.thresholdType === 'Percentage' ? `${alert.thresholdValue}%` : formatUsd(alert.thresholdValue);
}
