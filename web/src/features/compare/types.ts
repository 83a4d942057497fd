import type { CostInclusions, DrillDimension, TimeRangePreset } from '@/lib/cost';
import type { FlatFilter } from '@/lib/cost-filters';

/** The period as the user chose it (the computed start and end come from `resolveTimeRange`). */
export interface PeriodChoice {
  preset: TimeRangePreset;
  startDate?: string;
  endDate?: string;
}

/** "Compare with": the previous period (the one definition) or a custom range. */
export type CompareWith = { mode: 'previous' } | { mode: 'custom'; startDate?: string; endDate?: string };

export type CompareSortKey = 'name' | 'previous' | 'current' | 'change' | 'percent';

export interface CompareSort {
  key: CompareSortKey;
  direction: 'asc' | 'desc';
}

/** Everything that decides what the Compare page asks for and shows (all of it in the URL). */
export interface CompareState {
  period: PeriodChoice;
  compareWith: CompareWith;
  /** One dimension. */
  groupBy: DrillDimension;
  inclusions: CostInclusions;
  filters: FlatFilter[];
  sort: CompareSort;
}
