import { useMemo } from 'react';
import { useCostFilterOptions } from '@/lib/cost';

/** No dates: the filter options over all the tenant's data (POST /v2/cost/filters). */
const ALL_DATA = { filters: [] };

/** The tenant's tag keys, sorted, from the cost filter options (the keys of its `tags`). */
export function useTagKeyChoices(enabled = true): { keys: string[]; isLoading: boolean; isError: boolean } {
  const options = useCostFilterOptions(enabled ? ALL_DATA : null);
  const keys = useMemo(() => Object.keys(options.data?.tags ?? {}).sort((a, b) => a.localeCompare(b)), [options.data]);
  return { keys, isLoading: options.isLoading, isError: options.isError };
}
