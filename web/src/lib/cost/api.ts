/**
 * The cost API calls (docs/API-COST.md), their react-query hooks and the §8 error texts.
 *
 * Hooks key on the request body (`[name, body]`), keep the previous answer while a new one loads
 * (`keepPreviousData`), cache answers for 60 s (§7) and pass the query's `signal` to fetch, so a
 * request that is no longer the latest is aborted; its answer, if it still arrives, belongs to
 * another key and never replaces the current one (§4 "a stale response is ignored").
 */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { isApiError } from '@/api/api-error';
import { NETWORK_ERROR_MESSAGE, api, unwrap } from '@/api/client';
import type { components } from '@/api/schema.gen';
import { useDebouncedValue, useStableValue } from './storage';

export type CostAggrRequest = components['schemas']['AggregateRequest'];
export type CostAggrResponse = components['schemas']['AggregateResponse'];
export type CostRow = components['schemas']['CostRow'];
export type CostSummary = components['schemas']['CostSummary'];
export type SpendRequest = components['schemas']['SpendRequest'];
export type SpendResponse = components['schemas']['SpendResponse'];
export type SpendPeriod = components['schemas']['SpendPeriod'];
export type FilterOptionsRequest = components['schemas']['FilterOptionsRequest'];
export type FilterOptionsResponse = components['schemas']['FilterOptionsResponse'];
export type ApiFilterGroup = components['schemas']['FilterGroupDto'];
export type ApiCondition = components['schemas']['ConditionDto'];
export type ApiTagCondition = components['schemas']['TagConditionDto'];
export type CostTypeSelection = components['schemas']['CostTypeDto'];

/** §9: GET answers are cached for 60 s; the cost POSTs use the same. */
export const COST_STALE_TIME_MS = 60_000;
/** §9: cost data is refetched 1000 ms after the last change of its request. */
export const COST_REFETCH_DEBOUNCE_MS = 1_000;
/** §9: filter options are refetched 500 ms after the last change. */
export const FILTER_OPTIONS_DEBOUNCE_MS = 500;

export const SERVER_ERROR_MESSAGE = 'Server error occurred';
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred';
/** §8 "Cost data fetch failure". */
export const COST_FETCH_FAILED_MESSAGE = 'Failed to fetch cost data';

export const costKeys = {
  all: ['cost'] as const,
  aggr: (body: CostAggrRequest | null) => ['cost', 'aggr', body] as const,
  spend: (body: SpendRequest | null) => ['cost', 'spend', body] as const,
  filterOptions: (body: FilterOptionsRequest | null) => ['cost', 'filters', body] as const,
};

export const postCostAggr = (body: CostAggrRequest, signal?: AbortSignal) =>
  unwrap<CostAggrResponse>(api.POST('/v2/cost/aggr', { body, signal }));

export const postCostFilters = (body: FilterOptionsRequest, signal?: AbortSignal) =>
  unwrap<FilterOptionsResponse>(api.POST('/v2/cost/filters', { body, signal }));

export const postSpend = (body: SpendRequest, signal?: AbortSignal) =>
  unwrap<SpendResponse>(api.POST('/v2/cost/spend', { body, signal }));

export interface CostQueryOptions {
  /** Wait this long after the last change of the body before asking (default 0). */
  debounceMs?: number;
}

/** The query of one cost answer (key, call, cache time): what the hooks ask and a prefetch fills. */
function costQuery<TBody, TAnswer>(
  key: (body: TBody | null) => readonly unknown[],
  call: (body: TBody, signal?: AbortSignal) => Promise<TAnswer>,
  body: TBody,
) {
  return {
    queryKey: key(body),
    queryFn: ({ signal }: { signal?: AbortSignal }) => call(body, signal),
    staleTime: COST_STALE_TIME_MS,
  };
}

/**
 * The query of one `/v2/cost/aggr` answer, as `useCostAggr` asks it: for filling the cache ahead
 * of a page (a prefetch), so that the page's own query finds its answer there.
 */
export const costAggrQuery = (body: CostAggrRequest) => costQuery(costKeys.aggr, postCostAggr, body);

function useCostQuery<TBody, TAnswer>(
  key: (body: TBody | null) => readonly unknown[],
  call: (body: TBody, signal?: AbortSignal) => Promise<TAnswer>,
  body: TBody | null,
  options?: CostQueryOptions,
): UseQueryResult<TAnswer, Error> {
  const stable = useStableValue(body);
  const debounced = useDebouncedValue(stable, options?.debounceMs ?? 0);
  const query = debounced === null ? null : costQuery(key, call, debounced);
  return useQuery({
    queryKey: query?.queryKey ?? [...key(null), 'disabled'],
    queryFn: query?.queryFn ?? (() => Promise.reject(new Error('No request to send'))),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    staleTime: COST_STALE_TIME_MS,
  });
}

/** POST /v2/cost/aggr; `null` asks nothing. */
export function useCostAggr(body: CostAggrRequest | null, options?: CostQueryOptions): UseQueryResult<CostAggrResponse, Error> {
  return useCostQuery(costKeys.aggr, postCostAggr, body, options);
}

/** POST /v2/cost/spend; `null` asks nothing. */
export function useSpend(body: SpendRequest | null, options?: CostQueryOptions): UseQueryResult<SpendResponse, Error> {
  return useCostQuery(costKeys.spend, postSpend, body, options);
}

/** POST /v2/cost/filters; `null` asks nothing (e.g. a custom range without dates, §5). */
export function useCostFilterOptions(
  body: FilterOptionsRequest | null,
  options?: CostQueryOptions,
): UseQueryResult<FilterOptionsResponse, Error> {
  return useCostQuery(costKeys.filterOptions, postCostFilters, body, options);
}

/**
 * The §8 text of a failed cost call: the server's own message, "Server error occurred" for a
 * server failure without one, "Network error - please check your connection" when the server
 * could not be reached, else "An unexpected error occurred".
 */
export function costErrorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 0) return NETWORK_ERROR_MESSAGE;
    if (error.serverMessage) return error.serverMessage;
    if (error.status >= 500) return SERVER_ERROR_MESSAGE;
    return UNEXPECTED_ERROR_MESSAGE;
  }
  if (error instanceof TypeError) return NETWORK_ERROR_MESSAGE;
  return UNEXPECTED_ERROR_MESSAGE;
}
