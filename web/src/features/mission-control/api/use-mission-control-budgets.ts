import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import { budgetList, type DashboardBudget } from '../utils/budget-health';

/**
 * Query keys under the budget screens' root key ('budgets'), so that saving or deleting a budget
 * there (which invalidates every 'budgets' query) refreshes Mission Control too, without the
 * features importing each other. The 'mission-control' segment keeps these parsed answers apart
 * from the budget screens' own cache entries.
 */
export const missionControlBudgetKeys = {
  list: ['budgets', 'mission-control', 'list'] as const,
  summary: ['budgets', 'mission-control', 'summary'] as const,
};

/** GET /v1/budgets, read as the widgets read it (spec 1 §3, §7: bare array or wrapped). */
export async function getDashboardBudgets(): Promise<DashboardBudget[]> {
  return budgetList(await unwrap<unknown>(api.GET('/v1/budgets')));
}

/** The number of budgets with an alert reached now, from GET /v1/budgets/summary's answer. */
export function readAlertsBudgets(answer: unknown): number | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const value = (answer as { alertsBudgets?: unknown }).alertsBudgets;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export async function getAlertsBudgets(): Promise<number | null> {
  return readAlertsBudgets(await unwrap<unknown>(api.GET('/v1/budgets/summary'))) ?? null;
}

export interface MissionControlBudgets {
  budgets: DashboardBudget[] | undefined;
  /** Budgets with an alert reached; undefined while unknown (the summary is optional, §7). */
  alertsBudgets: number | undefined;
  error: Error | null;
  refetch(): void;
}

/**
 * The budget list for the budget overview, and the summary for its alert count. Budgets run on
 * their own periods, so neither call depends on the dashboard's range or filters. A failed
 * summary is tolerated (§7): it is not retried and only the alert count is left out.
 */
export function useMissionControlBudgets(): MissionControlBudgets {
  const list = useQuery({ queryKey: missionControlBudgetKeys.list, queryFn: getDashboardBudgets });
  const summary = useQuery({ queryKey: missionControlBudgetKeys.summary, queryFn: getAlertsBudgets, retry: false });
  return {
    budgets: list.data,
    alertsBudgets: summary.data ?? undefined,
    error: list.error,
    refetch: () => void list.refetch(),
  };
}
