import { useMemo } from 'react';
import { FILTER_OPTIONS_DEBOUNCE_MS, useCostFilterOptions, type TimeRange } from '@/lib/cost';
import { normaliseTagOptions, optionDates, providersFromResponse } from '@/lib/cost-filters';
import type { QueryFieldName } from '../types';

/** What the builder's value inputs offer: the tenant's values in the chosen period. */
export interface QueryValueOptions {
  values: Partial<Record<QueryFieldName, string[]>>;
  accountNames: Record<string, string>;
  tags: Record<string, string[]>;
  isLoading: boolean;
  /** The options call failed: every value is typed in. */
  failed: boolean;
}

/**
 * The values of the period (POST /v2/cost/filters without filters, as the filter panel asks),
 * 500 ms after the period last changed. Providers as the API stores them, clouds first.
 */
export function useQueryValueOptions(range: TimeRange): QueryValueOptions {
  const dates = optionDates(range);
  const query = useCostFilterOptions(dates ? { ...dates, filters: [] } : null, { debounceMs: FILTER_OPTIONS_DEBOUNCE_MS });
  const answer = query.data;
  return useMemo(() => {
    return {
      values: answer
        ? { cloud_provider: providersFromResponse(answer), service_name: answer.services, region: answer.regions, account_id: answer.accounts }
        : {},
      accountNames: answer?.account_names ?? {},
      tags: answer ? normaliseTagOptions(answer.tags) : {},
      isLoading: query.isLoading,
      failed: query.isError,
    };
  }, [answer, query.isLoading, query.isError]);
}
