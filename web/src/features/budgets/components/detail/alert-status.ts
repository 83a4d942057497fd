/**
 * The Alerts panel's reading of each threshold (spec 2 §2 "Budget detail"): reached or not, its
 * latest recorded trigger, the order of the list and how far an untriggered alert still is.
 */
import { formatDateUtc } from '@/lib/dates';
import { isAlertReached, isForecasted, isSameAlert, type Threshold } from '../../model/alerts';
import { formatPercent, formatUsd } from '../../model/format';
import { percentOfAmount } from '../../model/health';
import type { AlertBasis, Budget, BudgetAlertHistoryItem } from '../../model/types';

/** An alert as the panel reads it; one without a basis is Actual. */
export type PanelAlert = Threshold & { basis?: AlertBasis | null };
import { DETAIL_MESSAGES } from './detail-messages';

export interface AlertStatus {
  alert: PanelAlert;
  /** Reached now, as the server answers it (`reachedAlerts`). */
  triggered: boolean;
  /** The newest alert-history entry of this threshold, when there is one. */
  latestTrigger: BudgetAlertHistoryItem | undefined;
}

/** Where a threshold sits on the budget, in percent of the amount (Absolute ones converted). */
export function thresholdPercent(alert: Threshold, amount: number): number {
  return alert.thresholdType === 'Percentage' ? alert.thresholdValue : percentOfAmount(alert.thresholdValue, amount);
}

function triggerTime(item: BudgetAlertHistoryItem): number {
  const time = Date.parse(item.triggeredAt);
  return Number.isNaN(time) ? 0 : time;
}

/** The newest history entry with the alert's type, value and basis (the history's order is not relied on). */
export function latestTriggerOf(
  alert: PanelAlert,
  history: readonly BudgetAlertHistoryItem[],
): BudgetAlertHistoryItem | undefined {
  let latest: BudgetAlertHistoryItem | undefined;
  for (const item of history) {
    if (!isSameAlert(item, alert)) continue;
    if (!latest || triggerTime(item) > triggerTime(latest)) latest = item;
  }
  return latest;
}

/**
 * Triggered alerts first, newest trigger first (those without a recorded trigger after them),
 * then by threshold ascending. Thresholds compare as percent of the amount so that '$1,000' on a
 * $5,000 budget (20%) comes before '75%'; at the same point Percentage comes first.
 */
export function compareAlertStatuses(a: AlertStatus, b: AlertStatus, amount: number): number {
  if (a.triggered !== b.triggered) return a.triggered ? -1 : 1;
  if (a.triggered) {
    const aTime = a.latestTrigger ? triggerTime(a.latestTrigger) : -Infinity;
    const bTime = b.latestTrigger ? triggerTime(b.latestTrigger) : -Infinity;
    if (aTime !== bTime) return bTime > aTime ? 1 : -1;
  }
  const byThreshold = thresholdPercent(a.alert, amount) - thresholdPercent(b.alert, amount);
  if (byThreshold !== 0) return byThreshold;
  if (a.alert.thresholdType === b.alert.thresholdType) return 0;
  return a.alert.thresholdType === 'Percentage' ? -1 : 1;
}

/**
 * Reached in the current period: in the server's `reachedAlerts`, or, for a Forecasted alert
 * (which the forecast total reaches before the spend does), recorded in this period's history.
 */
function isTriggered(
  alert: PanelAlert,
  latestTrigger: BudgetAlertHistoryItem | undefined,
  budget: Pick<Budget, 'reachedAlerts' | 'periodStart'>,
): boolean {
  if (isAlertReached(alert, budget)) return true;
  return isForecasted(alert) && latestTrigger?.periodStart === budget.periodStart;
}

/** Every alert of the budget with its reading, in the panel's order. */
export function alertStatuses(budget: Budget, history: readonly BudgetAlertHistoryItem[]): AlertStatus[] {
  return budget.alerts
    .map((alert) => {
      const latestTrigger = latestTriggerOf(alert, history);
      return { alert, triggered: isTriggered(alert, latestTrigger, budget), latestTrigger };
    })
    .sort((a, b) => compareAlertStatuses(a, b, budget.amount));
}

/**
 * Rounds up to one decimal so that a distance still to cover never reads as 0; the inner
 * rounding drops float noise first (32.70000000001 stays 32.7).
 */
function ceilToTenth(value: number): number {
  return Math.ceil(Math.round(value * 10 * 1e6) / 1e6) / 10;
}

/**
 * The figures an alert's distance is read from: the server's spend and percentage used, and for
 * a Forecasted alert the budget's amount and forecast.
 */
export type SpendFigures = Pick<Budget, 'currentSpent' | 'percentUsed'> & Partial<Pick<Budget, 'amount' | 'forecast'>>;

/** How far an untriggered alert is: '$1,200 to go' (Absolute) or '12.5% to go' (Percentage). */
export function alertDistance(alert: Threshold, figures: SpendFigures): string {
  const spent = figures.currentSpent;
  if (alert.thresholdType === 'Percentage') {
    const remaining = Math.max(0, alert.thresholdValue - figures.percentUsed);
    return `${formatPercent(ceilToTenth(remaining))} to go`;
  }
  const remaining = Math.max(0, alert.thresholdValue - spent);
  return `${formatUsd(Math.ceil(remaining))} to go`;
}

/**
 * The line under an alert: when and at what spend it last triggered, 'Triggered (no history
 * data)' when it is reached but nothing was recorded, else how far away it still is.
 */
export function alertStatusText(status: AlertStatus, figures: SpendFigures): string {
  if (isForecasted(status.alert)) return forecastedAlertStatusText(status, figures);
  if (!status.triggered) return alertDistance(status.alert, figures);
  const trigger = status.latestTrigger;
  if (!trigger) return DETAIL_MESSAGES.triggeredWithoutHistory;
  return `Triggered on ${formatDateUtc(trigger.triggeredAt)} at ${formatUsd(trigger.spentAmount)} spent`;
}

/**
 * A Forecasted alert: when the forecast reached it, else how far the forecast total still is
 * from it ('12.5% to go on the forecast'), or that there is no forecast yet.
 */
function forecastedAlertStatusText(status: AlertStatus, figures: SpendFigures): string {
  if (status.triggered) {
    const trigger = status.latestTrigger;
    if (!trigger) return DETAIL_MESSAGES.triggeredWithoutHistory;
    return `Triggered by the forecast on ${formatDateUtc(trigger.triggeredAt)} (${formatUsd(trigger.spentAmount)} spent)`;
  }
  const forecast = figures.forecast;
  const amount = figures.amount;
  if (!forecast || amount === undefined) return DETAIL_MESSAGES.noForecast;
  const onForecast = { currentSpent: forecast.amount, percentUsed: percentOfAmount(forecast.amount, amount) };
  return `${alertDistance(status.alert, onForecast)} on the forecast`;
}
