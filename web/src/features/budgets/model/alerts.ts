/** Alert thresholds (spec 2 §2 Alerts panel, §4 ALERTS filter; docs/ANOMALIES.md forecast alerts). */
import { formatUsd } from './format';
import type { AlertBasis, AlertThreshold, Budget } from './types';

/** A threshold's type and value, whatever it is compared with. */
export type Threshold = Pick<AlertThreshold, 'thresholdType' | 'thresholdValue'>;

/** The bases in the order the wizard offers them; `Actual` is the default. */
export const ALERT_BASES: readonly AlertBasis[] = ['Actual', 'Forecasted'];
export const DEFAULT_BASIS: AlertBasis = 'Actual';

/** The basis of an alert; one answered without it is `Actual`, the meaning it always had. */
export function basisOf(alert: { basis?: AlertBasis | null }): AlertBasis {
  return alert.basis ?? DEFAULT_BASIS;
}

export function isForecasted(alert: { basis?: AlertBasis | null }): boolean {
  return basisOf(alert) === 'Forecasted';
}

/** The same alert: type, value and basis (the server's duplicate rule counts all three). */
export function isSameAlert(
  a: Threshold & { basis?: AlertBasis | null },
  b: Threshold & { basis?: AlertBasis | null },
): boolean {
  return a.thresholdType === b.thresholdType && a.thresholdValue === b.thresholdValue && basisOf(a) === basisOf(b);
}

/**
 * Reached now, as the server answers it in `reachedAlerts` (a percentage against the percentage
 * used, an absolute value against the spend, compared exactly on the cents).
 */
export function isAlertReached(
  alert: Threshold & { basis?: AlertBasis | null },
  budget: Pick<Budget, 'reachedAlerts'>,
): boolean {
  return budget.reachedAlerts.some((reached) => isSameAlert(reached, alert));
}

export function reachedAlerts(budget: Pick<Budget, 'reachedAlerts'>): AlertThreshold[] {
  return budget.reachedAlerts;
}

/** '75%' for a percentage threshold, '$4,500' for an absolute one. */
export function alertLabel(alert: Threshold): string {
  return alert.thresholdType === 'Percentage' ? `${alert.thresholdValue}%` : formatUsd(alert.thresholdValue);
}

/** The label with its basis when it is not the default: '75%', '100% (Forecasted)'. */
export function alertDescription(alert: Threshold & { basis?: AlertBasis | null }): string {
  return isForecasted(alert) ? `${alertLabel(alert)} (Forecasted)` : alertLabel(alert);
}
