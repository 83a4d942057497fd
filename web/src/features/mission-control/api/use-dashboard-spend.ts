import { useSpend, type ApiFilterGroup, type TimeRange } from '@/lib/cost';
import { spendRequest } from '../utils/requests';

/**
 * POST /v2/cost/spend for the four cards. A new range or new filters ask again; an answer to an
 * older request is ignored (the shared hook keys on the body).
 */
export function useDashboardSpend(range: TimeRange, filters: ApiFilterGroup[]) {
  return useSpend(spendRequest(range, filters));
}
