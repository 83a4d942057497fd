import { CHART_DATA_CAP, TABLE_COMBINATION_CAP, inclusionsToCostType, rangeDays, type CostAggrRequest, type TimeRange } from '@/lib/cost';
import { buildApiFilterGroups } from '@/lib/cost-filters';
import type { AnalysisState, ViewType } from '../types';

/** §9 chart cap and table limits (shared with the other cost pages). */
export { CHART_DATA_CAP, TABLE_COMBINATION_CAP, TABLE_PERIOD_CAP } from '@/lib/cost';

/** §9: the interval is monthly only for the Monthly view, daily otherwise (weeks are summed here). */
export function apiInterval(view: ViewType): 'daily' | 'monthly' {
  return view === 'monthly' ? 'monthly' : 'daily';
}

/** How many periods the API answers per group for this range and view. */
export function apiBucketCount(range: Pick<TimeRange, 'start' | 'end'>, view: ViewType): number {
  if (apiInterval(view) === 'daily') return rangeDays(range);
  const start = new Date(range.start);
  const end = new Date(range.end);
  return (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth() + 1;
}

/** Groups per chart request so that groups × periods stays within the chart cap. */
export function seriesGroupLimit(range: Pick<TimeRange, 'start' | 'end'>, view: ViewType): number {
  return Math.max(1, Math.min(CHART_DATA_CAP, Math.floor(CHART_DATA_CAP / Math.max(1, apiBucketCount(range, view)))));
}

export interface AnalysisRequests {
  /** Periods of the primary group (or of the total when ungrouped): the chart. */
  series: CostAggrRequest;
  /** One total per combination of every chosen dimension: the table. Null when ungrouped. */
  table: CostAggrRequest | null;
  /** Filters the client left out (§5 skip rules). */
  warnings: string[];
}

/** The §7 POST /v2/cost/aggr bodies for the screen's state. */
export function buildAnalysisRequests(state: AnalysisState, range: TimeRange): AnalysisRequests {
  const { groups, warnings } = buildApiFilterGroups(state.filters);
  const dimensions = state.grouping.groupByDimensions;
  const primary = dimensions[0];
  const common = {
    start_time: range.start,
    end_time: range.end,
    filters: groups,
    group_by_hierarchy: state.grouping.groupByHierarchy,
    include_forecast: false,
    cost_type: inclusionsToCostType(state.inclusions),
    order_by: 'amount',
    order_desc: true,
    offset: 0,
  } satisfies Partial<CostAggrRequest>;

  const series: CostAggrRequest = {
    ...common,
    group_by: primary ?? 'none',
    group_by_dimensions: primary ? [primary] : [],
    interval: apiInterval(state.viewType),
    view_type: state.viewType,
    limit: seriesGroupLimit(range, state.viewType),
  };
  const table: CostAggrRequest | null = primary
    ? { ...common, group_by: primary, group_by_dimensions: [...dimensions], limit: TABLE_COMBINATION_CAP }
    : null;
  return { series, table, warnings };
}
