import { useCallback, useMemo } from 'react';
import { SAVE_DELAY_MS, STORAGE_KEYS, usePersistentState } from '@/lib/cost';
import type { FlatFilter } from './types';
import { dropEmptyFilters } from './validation';

export type AppliedFiltersScreen = 'cost_analysis' | 'mission_control' | 'dashboard';

/** Where each screen keeps its applied filters (spec 1 §9 storage keys). */
export const APPLIED_FILTERS_KEYS: Readonly<Record<AppliedFiltersScreen, string>> = {
  cost_analysis: STORAGE_KEYS.filterState,
  mission_control: STORAGE_KEYS.missionControlFilters,
  dashboard: `${STORAGE_KEYS.filterState}_dashboard`,
};

function isFlatFilter(value: unknown): value is FlatFilter {
  if (!value || typeof value !== 'object') return false;
  const f = value as Partial<FlatFilter>;
  return typeof f.id === 'string' && typeof f.field === 'string' && Array.isArray(f.value);
}

/** Stored data that is not a list of filters (an older format, a hand edit) gives no filters. */
export function readableFilters(stored: unknown): FlatFilter[] {
  return Array.isArray(stored) ? dropEmptyFilters(stored).filter(isFlatFilter) : [];
}

/** A screen's applied flat filters, kept in localStorage and saved 1000 ms after a change (§9). */
export function useAppliedFilters(module: AppliedFiltersScreen): { filters: FlatFilter[]; setFilters(filters: FlatFilter[]): void; clear(): void } {
  const [stored, setStored] = usePersistentState<unknown>(APPLIED_FILTERS_KEYS[module], [], { delayMs: SAVE_DELAY_MS });
  const filters = useMemo(() => readableFilters(stored), [stored]);
  const setFilters = useCallback((next: FlatFilter[]) => setStored(next), [setStored]);
  const clear = useCallback(() => setStored([]), [setStored]);
  return { filters, setFilters, clear };
}
