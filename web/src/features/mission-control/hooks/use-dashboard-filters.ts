import { useMemo } from 'react';
import { buildApiFilterGroups, useAppliedFilters } from '@/lib/cost-filters';

/** Mission Control's applied filters (kept under the §9 key) and the API filter groups they give. */
export function useDashboardFilters() {
  const applied = useAppliedFilters('mission_control');
  const { groups, warnings } = useMemo(() => buildApiFilterGroups(applied.filters), [applied.filters]);
  return { ...applied, groups, warnings };
}
