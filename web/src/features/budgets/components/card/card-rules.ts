/** What a budget card shows (spec 2 §2 "Budget card"), apart from the shared health rules. */
import type { Threshold } from '../../model/alerts';
import { FILTER_TYPE_LABEL } from '../../model/filters';
import type { Budget, BudgetPeriod } from '../../model/types';

export type RibbonTone = 'blue' | 'purple' | 'green';

export const RIBBON_COLOR: Record<RibbonTone, string> = { blue: '#1e6fd9', purple: '#7b3fb8', green: '#287a4c' }; // green darker than sea green (#2e8b57, 4.2:1 with white)

/** Monthly blue, Quarterly purple, any other period green. */
export function ribbonTone(period: BudgetPeriod | string): RibbonTone {
  if (period === 'Monthly') return 'blue';
  if (period === 'Quarterly') return 'purple';
  return 'green';
}

export const PROVIDERS_SHOWN = 2;

/**
 * The provider badge: "shows up to 2 providers and then +N" (spec 2 §2 Budget card). The spec
 * adds "when there are more than 3", which read literally would hide the third of AWS, GCP and
 * Azure without a trace; a hidden provider is always counted instead, so three read 'AWS GCP +1'.
 */
export function providerBadge(providers: readonly string[]): { shown: string[]; more: number } {
  const shown = providers.slice(0, PROVIDERS_SHOWN);
  const more = Math.max(0, providers.length - PROVIDERS_SHOWN);
  return { shown, more };
}

export const FILTER_CHIPS_SHOWN = 5;

/** One chip per filter value: 'Account: 123456789012'. */
export function filterChipLabels(filters: Budget['filters']): string[] {
  return filters.flatMap((filter) =>
    filter.filterValues.map((value) => `${FILTER_TYPE_LABEL[filter.filterType] ?? filter.filterType}: ${value}`),
  );
}

export type TrendDirection = 'up' | 'down' | 'flat';

/**
 * Spend now against the previous period's, in percent of the previous; null when there is no
 * previous spend to compare with (missing or zero).
 */
export function spendTrend(currentSpent: number, previousSpent: number | null | undefined):
  | { direction: TrendDirection; changePercent: number }
  | null {
  if (previousSpent === null || previousSpent === undefined || !(previousSpent > 0)) return null;
  const changePercent = ((currentSpent - previousSpent) / previousSpent) * 100;
  const direction: TrendDirection = changePercent > 0 ? 'up' : changePercent < 0 ? 'down' : 'flat';
  return { direction, changePercent };
}

/** Milestone markers on the progress bar: the percentage alerts up to 100, ascending, each once. */
export function milestonePercents(alerts: ReadonlyArray<Threshold>): number[] {
  const values = alerts
    .filter((alert) => alert.thresholdType === 'Percentage' && alert.thresholdValue <= 100)
    .map((alert) => alert.thresholdValue);
  return [...new Set(values)].sort((a, b) => a - b);
}
