import { useMemo } from 'react';
import { previousTimeRange, useCostAggr, type ApiFilterGroup, type TimeRange } from '@/lib/cost';
import { summariseCategories, type CategorySummary } from '../utils/category-summary';
import { serviceAggrRequest } from '../utils/requests';

export interface ServiceCategoriesResult {
  /** The period the categories are compared with (§9: previous month, quarter or year per preset). */
  previousRange: TimeRange;
  summaries: CategorySummary[] | undefined;
  /** A request is under way (also while the previous answer is still shown). */
  isFetching: boolean;
  error: Error | null;
  refetch(): void;
}

/**
 * POST /v2/cost/aggr grouped by service for the range and for the previous period, summed per
 * category. The previous amounts are the previous period's real spend.
 */
export function useServiceCategories(range: TimeRange, filters: ApiFilterGroup[]): ServiceCategoriesResult {
  const previousRange = useMemo(() => previousTimeRange(range), [range]);
  const current = useCostAggr(serviceAggrRequest(range, filters));
  const previous = useCostAggr(serviceAggrRequest(previousRange, filters));
  const summaries = useMemo(
    () => (current.data && previous.data ? summariseCategories(current.data.data, previous.data.data) : undefined),
    [current.data, previous.data],
  );
  return {
    previousRange,
    summaries,
    isFetching: current.isFetching || previous.isFetching,
    error: current.error ?? previous.error ?? null,
    refetch: () => {
      if (current.error) void current.refetch();
      if (previous.error) void previous.refetch();
    },
  };
}
