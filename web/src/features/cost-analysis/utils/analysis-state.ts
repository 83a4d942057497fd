import { DEFAULT_INCLUSIONS, DEFAULT_PRESET, GROUP_BY_OPTIONS, MAX_GROUP_BY, STORAGE_KEYS, type GroupKey } from '@/lib/cost';
import type { AnalysisState, DisplayType, GroupingState, ViewType } from '../types';

/** §2.5 View select, in order. */
export const VIEW_OPTIONS: ReadonlyArray<{ value: ViewType; label: string }> = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'cumulative', label: 'Cumulative' },
];

/** §9 defaults: This Month, Daily, Currency. */
export const DEFAULT_VIEW: ViewType = 'daily';
export const DEFAULT_DISPLAY: DisplayType = 'currency';

/** §3 Grouping state defaults: ungrouped, hierarchy on, sorted by cost, largest first. */
export const DEFAULT_GROUPING: GroupingState = {
  groupBy: 'none',
  groupByDimensions: [],
  groupByHierarchy: true,
  sortConfig: { field: 'cost', direction: 'desc' },
};

export const DEFAULT_STATE: AnalysisState = {
  period: { preset: DEFAULT_PRESET },
  viewType: DEFAULT_VIEW,
  grouping: DEFAULT_GROUPING,
  inclusions: DEFAULT_INCLUSIONS,
  filters: [],
};

/**
 * The charge types are not among the §9 storage keys; they are kept under a key of the same
 * family so that the Include choice survives a reload like the others.
 */
export const INCLUSIONS_STORAGE_KEY = STORAGE_KEYS.costInclusions;

export function isGroupKey(value: unknown): value is GroupKey {
  return GROUP_BY_OPTIONS.some((option) => option.value === value);
}

export function isViewType(value: unknown): value is ViewType {
  return VIEW_OPTIONS.some((option) => option.value === value);
}

/** The grouping state for a Group By choice; `groupBy` mirrors the primary group. */
export function withDimensions(grouping: GroupingState, dimensions: GroupKey[]): GroupingState {
  const kept = [...new Set(dimensions)]
    .filter((key): key is Exclude<GroupKey, 'none'> => isGroupKey(key) && key !== 'none')
    .slice(0, MAX_GROUP_BY);
  const { field } = grouping.sortConfig;
  const sortStillShown = field === 'cost' || kept.includes(field);
  return {
    ...grouping,
    groupBy: kept[0] ?? 'none',
    groupByDimensions: kept,
    sortConfig: sortStillShown ? grouping.sortConfig : DEFAULT_GROUPING.sortConfig,
  };
}

/** A stored grouping state read defensively (older or hand-edited values). */
export function normaliseGrouping(value: unknown): GroupingState {
  if (!value || typeof value !== 'object') return DEFAULT_GROUPING;
  const raw = value as Partial<GroupingState>;
  const dimensions = Array.isArray(raw.groupByDimensions) ? raw.groupByDimensions : [];
  const sort = raw.sortConfig && typeof raw.sortConfig === 'object' ? raw.sortConfig : DEFAULT_GROUPING.sortConfig;
  return withDimensions(
    {
      ...DEFAULT_GROUPING,
      groupByHierarchy: typeof raw.groupByHierarchy === 'boolean' ? raw.groupByHierarchy : true,
      sortConfig: { field: sort.field ?? 'cost', direction: sort.direction === 'asc' ? 'asc' : 'desc' },
    },
    dimensions,
  );
}
