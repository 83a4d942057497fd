/**
 * The request bodies of Mission Control (spec 1 §7): POST /v2/cost/spend for the cards and
 * POST /v2/cost/service-categories for the service categories.
 *
 * No `cost_type` is sent, so both calls count every charge type. The spec's list (Usage, Tax,
 * Fee, regular, tax, Credit, Refund) would leave out charges that are part of the bill, such as
 * AWS SavingsPlanRecurringFee and Azure Purchase (both in the demo data), and the Total Spend
 * would then be lower than the invoice.
 */
import type { ApiFilterGroup, SpendRequest, TimeRange } from '@/lib/cost';
import type { ServiceCategoriesRequest } from './category-summary';

/** POST /v2/cost/spend over the range, with the applied filter groups. */
export function spendRequest(range: Pick<TimeRange, 'start' | 'end'>, filters: ApiFilterGroup[]): SpendRequest {
  return { start_time: range.start, end_time: range.end, filters };
}

/** POST /v2/cost/service-categories over the range, compared with `previous` (§9). */
export function serviceCategoriesRequest(
  range: Pick<TimeRange, 'start' | 'end'>,
  previous: Pick<TimeRange, 'start' | 'end'>,
  filters: ApiFilterGroup[],
): ServiceCategoriesRequest {
  return {
    start_time: range.start,
    end_time: range.end,
    previous_start_time: previous.start,
    previous_end_time: previous.end,
    filters,
  };
}
