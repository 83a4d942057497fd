/**
 * The budget calls of spec 2 §7 (shapes in docs/API-BUDGETS.md) and their react-query hooks.
 * Every mutation invalidates all budget queries, so lists, summary and detail refetch.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type {
  Budget,
  BudgetAlertHistoryItem,
  BudgetConfigHistoryItem,
  BudgetHistoryItem,
  BudgetRequest,
  BudgetResourcesResponse,
  BudgetSummary,
  FilterParameters,
  NotificationChannel,
} from '../model/types';
import { budgetKeys, type BudgetResourcesParams } from './keys';

export const getBudgets = () => unwrap<Budget[]>(api.GET('/v1/budgets'));
export const getBudgetSummary = () => unwrap<BudgetSummary>(api.GET('/v1/budgets/summary'));
export const getBudget = (id: number) =>
  unwrap<Budget>(api.GET('/v1/budgets/{id}', { params: { path: { id } } }));
export const createBudget = (body: BudgetRequest) => unwrap<Budget>(api.POST('/v1/budgets', { body }));
export const updateBudget = ({ id, body }: { id: number; body: BudgetRequest }) =>
  unwrap<Budget>(api.PUT('/v1/budgets/{id}', { params: { path: { id } }, body }));
export const deleteBudget = (id: number) =>
  unwrap<unknown>(api.DELETE('/v1/budgets/{id}', { params: { path: { id } } }));
export const getBudgetHistory = (id: number, range: { startDate?: string; endDate?: string }) =>
  unwrap<BudgetHistoryItem[]>(
    api.GET('/v1/budgets/{id}/history', { params: { path: { id }, query: range } }),
  );
export const getAlertHistory = (id: number) =>
  unwrap<BudgetAlertHistoryItem[]>(api.GET('/v1/budgets/{id}/alert-history', { params: { path: { id } } }));
export const getConfigHistory = (id: number) =>
  unwrap<BudgetConfigHistoryItem[]>(api.GET('/v1/budgets/{id}/config-history', { params: { path: { id } } }));
export const getBudgetResources = (id: number, query: BudgetResourcesParams, signal?: AbortSignal) =>
  unwrap<BudgetResourcesResponse>(
    api.GET('/v1/budgets/{id}/resources', { params: { path: { id }, query }, signal }),
  );
export const getFilterParameters = () => unwrap<FilterParameters>(api.GET('/v1/cost/filter-parameters'));
export const getChannels = () => unwrap<NotificationChannel[]>(api.GET('/v1/channels'));

export const budgetsQuery = () => queryOptions({ queryKey: budgetKeys.list(), queryFn: getBudgets });
export const budgetSummaryQuery = () => queryOptions({ queryKey: budgetKeys.summary(), queryFn: getBudgetSummary });

export const useBudgets = () => useQuery(budgetsQuery());
export const useBudgetSummary = () => useQuery(budgetSummaryQuery());
export const useBudget = (id: number | undefined) =>
  useQuery({
    queryKey: budgetKeys.detail(id ?? 0),
    queryFn: () => getBudget(id ?? 0),
    enabled: id !== undefined && Number.isFinite(id),
  });
export const useBudgetHistory = (id: number, range: { startDate?: string; endDate?: string }) =>
  useQuery({
    queryKey: budgetKeys.history(id, range),
    queryFn: () => getBudgetHistory(id, range),
    placeholderData: keepPreviousData,
  });
export const useAlertHistory = (id: number) =>
  useQuery({ queryKey: budgetKeys.alertHistory(id), queryFn: () => getAlertHistory(id) });
export const useConfigHistory = (id: number) =>
  useQuery({ queryKey: budgetKeys.configHistory(id), queryFn: () => getConfigHistory(id) });
export const useBudgetResources = (id: number, params: BudgetResourcesParams | null) =>
  useQuery({
    queryKey: budgetKeys.resources(id, params ?? { startDate: '', endDate: '', page: 1, size: 10 }),
    queryFn: ({ signal }) => getBudgetResources(id, params as BudgetResourcesParams, signal),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
/** GET /v1/cost/filter-parameters: cached for the session (spec 2 §7 "none, cached"). */
export const useFilterParameters = () =>
  useQuery({ queryKey: budgetKeys.filterParameters(), queryFn: getFilterParameters, staleTime: Infinity });

/** GET /v1/channels: the channels a budget's alerts can be sent to (docs/NOTIFICATIONS.md). */
export const useChannels = () => useQuery({ queryKey: budgetKeys.channels(), queryFn: getChannels });

function useBudgetMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.all }),
  });
}

export const useCreateBudget = () => useBudgetMutation(createBudget);
export const useUpdateBudget = () => useBudgetMutation(updateBudget);
export const useDeleteBudget = () => useBudgetMutation(deleteBudget);
