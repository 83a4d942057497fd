/** React-query keys of the budget calls; `all` invalidates every one of them. */
export const budgetKeys = {
  all: ['budgets'] as const,
  list: () => ['budgets', 'list'] as const,
  summary: () => ['budgets', 'summary'] as const,
  detail: (id: number) => ['budgets', 'detail', id] as const,
  history: (id: number, range: { startDate?: string; endDate?: string }) =>
    ['budgets', 'history', id, range.startDate ?? '', range.endDate ?? ''] as const,
  alertHistory: (id: number) => ['budgets', 'alert-history', id] as const,
  configHistory: (id: number) => ['budgets', 'config-history', id] as const,
  resources: (id: number, params: BudgetResourcesParams) => ['budgets', 'resources', id, params] as const,
  filterParameters: () => ['budgets', 'filter-parameters'] as const,
  channels: () => ['budgets', 'channels'] as const,
};

/** Query of GET /v1/budgets/{id}/resources (docs/API-BUDGETS.md). */
export interface BudgetResourcesParams {
  startDate: string;
  endDate: string;
  page: number;
  size: number;
  sortBy?: 'cost' | 'resourceName' | 'resourceType' | 'region' | 'accountId' | 'cloudProvider';
  sortDirection?: 'asc' | 'desc';
}
