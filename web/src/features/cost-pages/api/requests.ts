import type { ApiFilterGroup, CostAggrRequest, GroupKey, SpendRequest } from '@/lib/cost';

/** The cost pages' `/v2/cost/aggr` and `/v2/cost/spend` bodies, built from a UTC range. */
export interface RangeLike {
  start: string;
  end: string;
}

export type Interval = 'daily' | 'weekly' | 'monthly';

/** Every group with every bucket: the pages show or total all of them. */
export const ALL_GROUPS = 10_000;

export function totalRequest(range: RangeLike, options: { interval?: Interval; filters?: ApiFilterGroup[] } = {}): CostAggrRequest {
  return {
    start_time: range.start,
    end_time: range.end,
    filters: options.filters ?? [],
    group_by: 'none',
    ...(options.interval ? { interval: options.interval } : {}),
  };
}

/** How many groups a top table shows unless told otherwise. */
export const TOP_LIMIT = 10;

/** The top `limit` groups of one dimension over the range (no interval), largest first. */
export function topRequest(range: RangeLike, dimension: Exclude<GroupKey, 'none'>, limit: number): CostAggrRequest {
  return {
    start_time: range.start,
    end_time: range.end,
    filters: [],
    group_by: dimension,
    limit,
    order_by: 'amount',
    order_desc: true,
  };
}

/** Flat rows of several dimensions over the range, optionally only some charge types. */
export function breakdownRequest(
  range: RangeLike,
  dimensions: Array<Exclude<GroupKey, 'none'>>,
  chargeTypes?: string[],
): CostAggrRequest {
  return {
    start_time: range.start,
    end_time: range.end,
    filters: [],
    group_by_dimensions: dimensions,
    group_by_hierarchy: false,
    limit: ALL_GROUPS,
    order_by: 'amount',
    order_desc: true,
    ...(chargeTypes ? { cost_type: { inclusions: chargeTypes } } : {}),
  };
}

export function spendRequest(range: RangeLike): SpendRequest {
  return { start_time: range.start, end_time: range.end, filters: [] };
}

/** The cost visualisation's rows: every group of one dimension, per day/week/month or cumulative. */
export function visualisationRequest(
  range: RangeLike,
  groupBy: GroupKey,
  aggregation: Interval | 'cumulative',
  filters: ApiFilterGroup[],
): CostAggrRequest {
  return {
    start_time: range.start,
    end_time: range.end,
    filters,
    ...(groupBy === 'none' ? { group_by: 'none' } : { group_by_dimensions: [groupBy], group_by_hierarchy: false }),
    ...(aggregation === 'cumulative' ? { view_type: 'cumulative', interval: 'daily' } : { interval: aggregation }),
    limit: ALL_GROUPS,
    order_by: 'amount',
    order_desc: true,
  };
}
