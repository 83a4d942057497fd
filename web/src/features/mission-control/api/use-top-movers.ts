import { useCostCompare, type ApiFilterGroup, type TimeRange } from '@/lib/cost';
import { topMoversRequest } from '../utils/requests';

/**
 * POST /v2/cost/compare twice for Top movers: the five largest changes by service and by account
 * over Mission Control's range and filters, against the previous period (the server's one
 * definition: the same number of days just before).
 */
export function useTopMovers(range: TimeRange, filters: ApiFilterGroup[]) {
  const services = useCostCompare(topMoversRequest(range, filters, 'service'));
  const accounts = useCostCompare(topMoversRequest(range, filters, 'account'));
  return { services, accounts };
}
