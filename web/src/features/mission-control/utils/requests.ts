/**
 * The request bodies of Mission Control (spec 1 §7): POST /v2/cost/spend for the cards and
 * POST /v2/cost/service-categories for the service categories, POST /v2/cost/compare for Top movers.
 *
 * No `cost_type` is sent, so the calls count every charge type. The spec's list (Usage, Tax,
 * Fee, regular, tax, Credit, Refund) would leave out charges that are part of the bill, such as
 * AWS SavingsPlanRecurringFee and Azure Purchase (both in the demo data), and the Total Spend
 * would then be lower than the invoice.
 */
import type { ApiFilterGroup, CompareRequest, SpendRequest, TimeRange } from '@/lib/cost';
import type { ServiceCategoriesRequest } from './category-summary';

/** POST /v2/cost/spend over the range, with the applied filter groups. */
export function spendRequest(range: Pick<TimeRange, 'start' | 'end'>, filters: ApiFilterGroup[]): SpendRequest {
  return { start_time: range.start, end_time: range.end, filters };
}

/**
 * POST /v2/cost/service-categories over the range. No previous dates are sent: the server
 * compares with the range of the same number of days just before (docs/ANALYST-FLOW.md "One
 * definition of previous period"), as the spend cards and Top movers do.
 */
export function serviceCategoriesRequest(range: Pick<TimeRange, 'start' | 'end'>, filters: ApiFilterGroup[]): ServiceCategoriesRequest {
  return { start_time: range.start, end_time: range.end, filters };
}

/**
 * POST /v2/cost/compare for one list of Top movers: the five largest changes of `groupBy` over
 * the range against the previous period, every charge type counted (as the spend cards count).
 */
export function topMoversRequest(
  range: Pick<TimeRange, 'start' | 'end'>,
  filters: ApiFilterGroup[],
  groupBy: 'service' | 'account',
): CompareRequest {
  return { start_time: range.start, end_time: range.end, group_by: groupBy, filters, order_by: 'change', limit: TOP_MOVERS_SIZE };
}

/** How many rows each Top movers list shows. */
export const TOP_MOVERS_SIZE = 5;
