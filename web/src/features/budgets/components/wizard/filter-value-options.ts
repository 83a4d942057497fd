import { budgetProviders } from '../../model/filters';
import type { BudgetFilterType, FilterParameters } from '../../model/types';

export interface FilterValueOptions {
  /** The values as sent to the server. */
  values: string[];
  /** Value → what the list shows, where it differs from the value (account names). */
  labels: Record<string, string>;
}

/** Tag values as the server matches them: 'key:value'. */
function tagValues(tags: FilterParameters['tags']): string[] {
  return Object.entries(tags).flatMap(([key, values]) => values.map((value) => `${key}:${value}`));
}

function accountLabels(params: FilterParameters): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const id of params.accounts) {
    const name = params.accountNames[id];
    if (name && name !== id) labels[id] = `${name} (${id})`;
  }
  return labels;
}

/** The values a filter of `type` can pick from GET /v1/cost/filter-parameters. */
export function filterValueOptions(params: FilterParameters | undefined, type: BudgetFilterType): FilterValueOptions {
  if (!params) return { values: [], labels: {} };
  switch (type) {
    case 'cloudProvider':
      // The server lists provider codes (aws, gcp); budgets carry the usual spelling (AWS, GCP).
      return { values: budgetProviders({ filters: [{ filterType: 'cloudProvider', filterValues: params.cloudProviders }] }), labels: {} };
    case 'account':
      return { values: params.accounts, labels: accountLabels(params) };
    case 'region':
      return { values: params.regions, labels: {} };
    case 'service':
      return { values: params.services, labels: {} };
    case 'tag':
      return { values: tagValues(params.tags), labels: {} };
  }
}
