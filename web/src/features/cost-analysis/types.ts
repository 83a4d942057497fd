import type { CostInclusions, DrillStep, GroupKey, TimeRangePreset } from '@/lib/cost';
import type { FlatFilter } from '@/lib/cost-filters';

/** §2.5 View select. */
export type ViewType = 'daily' | 'weekly' | 'monthly' | 'cumulative';

/** §9 "default display Currency": the one display the screen has. */
export type DisplayType = 'currency';

/** The period as the user chose it (the computed start and end come from `resolveTimeRange`). */
export interface PeriodChoice {
  preset: TimeRangePreset;
  startDate?: string;
  endDate?: string;
}

export type SortField = 'cost' | Exclude<GroupKey, 'none'>;

/** §3 "Grouping state". */
export interface GroupingState {
  groupBy: GroupKey;
  /** Up to 4; empty = Ungrouped. The first one is the primary group. */
  groupByDimensions: Exclude<GroupKey, 'none'>[];
  groupByHierarchy: boolean;
  sortConfig: { field: SortField; direction: 'asc' | 'desc' };
}

/** Everything that decides what the screen asks for and shows. */
export interface AnalysisState {
  period: PeriodChoice;
  viewType: ViewType;
  grouping: GroupingState;
  inclusions: CostInclusions;
  filters: FlatFilter[];
  /** The drill-down path (docs/ANALYST-FLOW.md "Drill-down"): in the link only, not stored. */
  drill?: DrillStep[];
}

/** §3 "Saved report", kept in browser storage only (§7). */
export interface SavedReport {
  id: string;
  name: string;
  description: string;
  timeRange: PeriodChoice;
  filters: FlatFilter[];
  groupBy: Exclude<GroupKey, 'none'>[];
  viewType: ViewType;
  displayType: DisplayType;
  costInclusions: CostInclusions;
  /** ISO time the report was saved. */
  savedAt: string;
}
