/** What the Budget Progress bar draws (spec 2 §2 "Budget detail"): fill, ticks and alert markers. */
import { alertDescription } from '../../model/alerts';
import type { Budget } from '../../model/types';
import { thresholdPercent } from './alert-status';

/** Tick markers under the bar, in percent. */
export const PROGRESS_TICKS = [25, 50, 75, 100] as const;

export interface AlertMarker {
  /** Position on the bar, 0–100. */
  percent: number;
  /** '75%', '$4,500' or '100% (Forecasted)', as the alert is written. */
  label: string;
}

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, value));
}

/** The bar's fill: the percentage used, capped at 100 (spending over the amount fills it). */
export function progressFill(percent: number): number {
  return clampPercent(percent);
}

/** One marker per alert; Absolute thresholds are placed at their percent of the amount. */
export function alertMarkers(budget: Pick<Budget, 'alerts' | 'amount'>): AlertMarker[] {
  return budget.alerts.map((alert) => ({
    percent: clampPercent(thresholdPercent(alert, budget.amount)),
    label: alertDescription(alert),
  }));
}

/** Dollars spent over the amount; 0 while within it. */
export function overBudgetAmount(spent: number, amount: number): number {
  return Math.max(0, spent - amount);
}
