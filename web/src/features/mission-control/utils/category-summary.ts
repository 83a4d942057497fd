/**
 * Cost by service category (spec 1 §9): the services of POST /v2/cost/aggr (grouped by service)
 * summed per category, for the range and for the previous period.
 */
import { rowDimension, type CostRow } from '@/lib/cost';
import { SERVICE_CATEGORIES, categoryOf, type ServiceCategory } from './service-categories';

/** §9: a category lists its first 3 service names, then "+N more". */
export const LISTED_SERVICES = 3;
/** §9: an insight warns when a category's change exceeds 25 percent. */
export const INSIGHT_CHANGE_PERCENT = 25;

export interface ServiceAmount {
  name: string;
  amount: number;
  previousAmount: number;
}

export interface CategorySummary {
  category: ServiceCategory;
  amount: number;
  /** The category's real spend in the previous period (not 85 % of the current one). */
  previousAmount: number;
  /** Percent change against `previousAmount`; null when that is 0. */
  change: number | null;
  /** Its services with spend in the range, largest first. */
  services: ServiceAmount[];
  /** Its services that had spend only in the previous period, largest first (they explain a fall). */
  previousOnly: ServiceAmount[];
}

/** Amounts below half a cent show as $0: such a category or service is "zero". */
function isZero(amount: number): boolean {
  return Math.abs(amount) < 0.005;
}

/** `(current − previous) / |previous| × 100`, as the API computes its changes; null for no previous. */
export function percentChange(current: number, previous: number): number | null {
  if (isZero(previous)) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}

function amountsByService(rows: ReadonlyArray<CostRow>): Map<string, number> {
  const amounts = new Map<string, number>();
  for (const row of rows) {
    const name = rowDimension(row, 'service');
    amounts.set(name, (amounts.get(name) ?? 0) + row.amount);
  }
  return amounts;
}

/**
 * One summary per category with spend in the range, in the order of the 15 categories; zero
 * categories (and zero services) are left out (§9).
 */
export function summariseCategories(current: ReadonlyArray<CostRow>, previous: ReadonlyArray<CostRow>): CategorySummary[] {
  const now = amountsByService(current);
  const before = amountsByService(previous);
  const services = new Map<ServiceCategory, ServiceAmount[]>();
  const previousOnly = new Map<ServiceCategory, ServiceAmount[]>();
  const previousTotals = new Map<ServiceCategory, number>();

  for (const [name, amount] of before) {
    const category = categoryOf(name);
    previousTotals.set(category, (previousTotals.get(category) ?? 0) + amount);
    if (isZero(now.get(name) ?? 0) && !isZero(amount)) {
      previousOnly.set(category, [...(previousOnly.get(category) ?? []), { name, amount: now.get(name) ?? 0, previousAmount: amount }]);
    }
  }
  for (const [name, amount] of now) {
    const category = categoryOf(name);
    const list = services.get(category) ?? [];
    list.push({ name, amount, previousAmount: before.get(name) ?? 0 });
    services.set(category, list);
  }

  const summaries: CategorySummary[] = [];
  for (const category of SERVICE_CATEGORIES) {
    const list = services.get(category) ?? [];
    const amount = list.reduce((sum, service) => sum + service.amount, 0);
    if (isZero(amount)) continue;
    const previousAmount = previousTotals.get(category) ?? 0;
    summaries.push({
      category,
      amount,
      previousAmount,
      change: percentChange(amount, previousAmount),
      services: list.filter((service) => !isZero(service.amount)).sort((a, b) => b.amount - a.amount),
      previousOnly: (previousOnly.get(category) ?? []).sort((a, b) => b.previousAmount - a.previousAmount),
    });
  }
  return summaries;
}

/** "AmazonEC2, AmazonS3, AWSLambda +2 more" (§9). */
export function serviceListLabel(services: ReadonlyArray<Pick<ServiceAmount, 'name'>>): string {
  const names = services.slice(0, LISTED_SERVICES).map((service) => service.name).join(', ');
  const more = services.length - LISTED_SERVICES;
  return more > 0 ? `${names} +${more} more` : names;
}

/** §9: a category whose spend grew by more than 25 % on the previous period gets an insight. */
export function needsInsight(summary: Pick<CategorySummary, 'change'>): boolean {
  return summary.change !== null && summary.change > INSIGHT_CHANGE_PERCENT;
}

/** The categories that get an insight, largest increase first. */
export function categoryInsights(summaries: ReadonlyArray<CategorySummary>): CategorySummary[] {
  return summaries.filter(needsInsight).sort((a, b) => (b.change ?? 0) - (a.change ?? 0));
}

/** The largest category (the overview's 100 % bar). */
export function largestAmount(summaries: ReadonlyArray<CategorySummary>): number {
  return summaries.reduce((max, summary) => Math.max(max, summary.amount), 0);
}
