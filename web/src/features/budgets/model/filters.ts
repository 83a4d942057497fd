/** Budget filters (spec 2 §3 Budget filterType values). */
import type { Budget, BudgetFilterType } from './types';

export const FILTER_TYPE_LABEL: Record<BudgetFilterType, string> = {
  cloudProvider: 'Cloud Provider',
  account: 'Account',
  region: 'Region',
  service: 'Service',
  tag: 'Tag',
};

/** The server accepts any letter case for providers (docs/API-BUDGETS.md); show the usual spelling. */
const PROVIDER_SPELLING: Record<string, string> = { aws: 'AWS', gcp: 'GCP', azure: 'Azure' };

/** The providers of the budget's cloudProvider filter, each once; [] when it has none. */
export function budgetProviders(budget: Pick<Budget, 'filters'>): string[] {
  const values = budget.filters
    .filter((filter) => filter.filterType === 'cloudProvider')
    .flatMap((filter) => filter.filterValues);
  const providers: string[] = [];
  for (const value of values) {
    const name = PROVIDER_SPELLING[value.trim().toLowerCase()] ?? value.trim();
    if (name && !providers.includes(name)) providers.push(name);
  }
  return providers;
}
