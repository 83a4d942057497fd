import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '@/api/client';
import { useStableValue, type ApiFilterGroup, type ComparePeriod, type TimeRange } from '@/lib/cost';
import { toSummaries, type CategorySummary, type ServiceCategoriesRequest, type ServiceCategoriesResponse } from '../utils/category-summary';
import { serviceCategoriesRequest } from '../utils/requests';

/** §7: cost answers are cached for 60 s. */
const STALE_TIME_MS = 60_000;

export const serviceCategoryKeys = {
  all: ['mission-control', 'service-categories'] as const,
  request: (body: ServiceCategoriesRequest) => [...serviceCategoryKeys.all, body] as const,
};

export const postServiceCategories = (body: ServiceCategoriesRequest, signal?: AbortSignal) =>
  unwrap<ServiceCategoriesResponse>(api.POST('/v2/cost/service-categories', { body, signal }));

export const serviceCategoriesQuery = (body: ServiceCategoriesRequest) =>
  queryOptions({
    queryKey: serviceCategoryKeys.request(body),
    queryFn: ({ signal }) => postServiceCategories(body, signal),
    placeholderData: keepPreviousData,
    staleTime: STALE_TIME_MS,
  });

export interface ServiceCategoriesResult {
  /** The period the categories are compared with, as the server answered it (the same number of days just before the range). */
  previousPeriod: ComparePeriod | undefined;
  summaries: CategorySummary[] | undefined;
  /** A request is under way (also while the previous answer is still shown). */
  isFetching: boolean;
  error: Error | null;
  refetch(): void;
}

/**
 * POST /v2/cost/service-categories for the range against the previous period: the server puts
 * every provider's services in a category and compares them with the previous period's real spend.
 */
export function useServiceCategories(range: TimeRange, filters: ApiFilterGroup[]): ServiceCategoriesResult {
  const body = useStableValue(serviceCategoriesRequest(range, filters));
  const query = useQuery(serviceCategoriesQuery(body));
  const summaries = useMemo(() => (query.data ? toSummaries(query.data) : undefined), [query.data]);
  return {
    previousPeriod: query.data?.previous_period,
    summaries,
    isFetching: query.isFetching,
    error: query.error ?? null,
    refetch: () => void query.refetch(),
  };
}
