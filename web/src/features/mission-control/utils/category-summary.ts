/**
 * Cost by service category (spec 1 §9) as POST /v2/cost/service-categories answers it. The
 * server places every provider's services in the 15 categories (FOCUS ServiceCategory first, then
 * the AWS, GCP and Azure service names), sums them, compares them with the previous period and
 * says which category gets an insight; this module only shapes the answer for the screen.
 */
import type { components } from '@/api/schema.gen';

export type ServiceCategoriesRequest = components['schemas']['ServiceCategoriesRequest'];
export type ServiceCategoriesResponse = components['schemas']['ServiceCategoriesResponse'];
export type ServiceCategory = components['schemas']['ServiceCategory'];

/** §9: a category lists its first 3 service names, then "+N more". */
export const LISTED_SERVICES = 3;

export interface ServiceAmount {
  name: string;
  amount: number;
  previousAmount: number;
  /** Percent change against `previousAmount`; null when that is 0. */
  change: number | null;
}

export interface CategorySummary {
  category: ServiceCategory;
  amount: number;
  /** The category's real spend in the previous period (not 85 % of the current one). */
  previousAmount: number;
  /** Percent change against `previousAmount`; null when that is 0. */
  change: number | null;
  /** The change exceeds 25 % (§9's insight), as the server decides. */
  insight: boolean;
  /** Its services with spend in the range, largest first. */
  services: ServiceAmount[];
  /** Its services that had spend only in the previous period, largest first (they explain a fall). */
  previousOnly: ServiceAmount[];
}

type ApiServiceAmount = components['schemas']['ServiceAmount'];

function toService(service: ApiServiceAmount): ServiceAmount {
  return { name: service.name, amount: service.amount, previousAmount: service.previous_amount, change: service.percent_change ?? null };
}

/** The answer's categories (already in the spec's order, zero categories left out). */
export function toSummaries(answer: Pick<ServiceCategoriesResponse, 'categories'>): CategorySummary[] {
  return answer.categories.map((category) => ({
    category: category.category,
    amount: category.amount,
    previousAmount: category.previous_amount,
    change: category.percent_change ?? null,
    insight: category.insight,
    services: category.services.map(toService),
    previousOnly: category.previous_only.map(toService),
  }));
}

/** "AmazonEC2, AmazonS3, AWSLambda +2 more" (§9). */
export function serviceListLabel(services: ReadonlyArray<Pick<ServiceAmount, 'name'>>): string {
  const names = services.slice(0, LISTED_SERVICES).map((service) => service.name).join(', ');
  const more = services.length - LISTED_SERVICES;
  return more > 0 ? `${names} +${more} more` : names;
}

/** The categories that get an insight, largest increase first. */
export function categoryInsights(summaries: ReadonlyArray<CategorySummary>): CategorySummary[] {
  return summaries.filter((summary) => summary.insight).sort((a, b) => (b.change ?? 0) - (a.change ?? 0));
}

/** The largest category (the overview's 100 % bar). */
export function largestAmount(summaries: ReadonlyArray<CategorySummary>): number {
  return summaries.reduce((max, summary) => Math.max(max, summary.amount), 0);
}
