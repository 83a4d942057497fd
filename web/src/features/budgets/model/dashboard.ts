/**
 * The dashboard's list rules (spec 2 §2 Budgets dashboard, §4 ALERTS filter and Sorting). Health,
 * percent used and reached alerts are the server's (docs/API-BUDGETS.md), never recomputed here.
 */
import { budgetProviders } from './filters';
import type { DashboardStatus } from './health';
import type { Budget, BudgetSummary } from './types';

/** A status of the summary strip: a health band, or 'alerts' (any alert reached). */
export type StatusFilter = DashboardStatus | 'alerts';

export const STATUS_FILTER_LABEL: Record<StatusFilter, string> = {
  healthy: 'Healthy',
  warning: 'Warning',
  critical: 'Critical',
  alerts: 'Alerts',
};

export type SortField = 'name' | 'amount' | 'currentSpent' | 'percentUsed';
export type SortDirection = 'asc' | 'desc';
export interface BudgetSort {
  field: SortField;
  direction: SortDirection;
}

export const SORT_FIELD_LABEL: Record<SortField, string> = {
  name: 'Name',
  amount: 'Budget Amount',
  currentSpent: 'Current Spent',
  percentUsed: 'Percentage Used',
};
export const SORT_FIELDS = Object.keys(SORT_FIELD_LABEL) as SortField[];
export const DEFAULT_SORT: BudgetSort = { field: 'name', direction: 'asc' };

/** Picking the same field toggles the direction; a new field starts ascending. */
export function nextSort(current: BudgetSort, field: SortField): BudgetSort {
  if (current.field === field) return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { field, direction: 'asc' };
}

/** Clicking a status that is already the filter clears it; another status replaces it. */
export function toggleStatusFilter(current: StatusFilter | null, clicked: StatusFilter): StatusFilter | null {
  return current === clicked ? null : clicked;
}

/** Search matches the name, the values of account filters and the providers (case-insensitive). */
export function matchesSearch(budget: Budget, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  const accounts = budget.filters.filter((f) => f.filterType === 'account').flatMap((f) => f.filterValues);
  const haystack = [budget.name, ...accounts, ...budgetProviders(budget)];
  return haystack.some((text) => text.toLowerCase().includes(needle));
}

export function matchesStatus(budget: Budget, filter: StatusFilter | null): boolean {
  if (filter === null) return true;
  if (filter === 'alerts') return budget.triggeredAlerts > 0;
  return budget.status === filter;
}

function sortValue(budget: Budget, field: Exclude<SortField, 'name'>): number {
  return budget[field];
}

export function sortBudgets(budgets: readonly Budget[], sort: BudgetSort): Budget[] {
  const factor = sort.direction === 'asc' ? 1 : -1;
  const { field } = sort;
  return [...budgets].sort((a, b) => {
    const order =
      field === 'name'
        ? a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true })
        : sortValue(a, field) - sortValue(b, field);
    return order * factor;
  });
}

export interface DashboardView {
  search: string;
  status: StatusFilter | null;
  sort: BudgetSort;
}

/** The cards to show: search, then the status filter, then the sort. */
export function visibleBudgets(budgets: readonly Budget[], view: DashboardView): Budget[] {
  const matching = budgets.filter((b) => matchesSearch(b, view.search) && matchesStatus(b, view.status));
  return sortBudgets(matching, view.sort);
}

/** spec 2 §7: when the summary cannot be read, zeros are shown. */
export const EMPTY_SUMMARY: BudgetSummary = {
  totalBudgets: 0,
  healthyBudgets: 0,
  warningBudgets: 0,
  criticalBudgets: 0,
  alertsBudgets: 0,
};
