/**
 * Basic Cost's answers, asked for as soon as a reloaded page's session is restored
 * (app/routes/lazy-pages.ts), while the application's code is still arriving: the page then
 * draws its chart from the cache instead of asking once it has rendered (issue 16: first chart
 * within 1 s on a 20 Mbit/s, 40 ms link).
 *
 * Imported on its own, not through the feature's index: a small chunk fetched beside the
 * application's, which runs as soon as the shared code has arrived, before the page renders.
 */
import type { QueryClient } from '@tanstack/react-query';
import { costAggrQuery, type CostAggrRequest } from '@/lib/cost/api';
import { resolveTimeRange } from '@/lib/cost/time-range';
import { TOP_LIMIT, topRequest, totalRequest } from './api/requests';

/** The `/v2/cost/aggr` bodies Basic Cost asks for when it opens at `now` (its widgets' requests). */
export function basicCostRequests(now: Date): CostAggrRequest[] {
  const thisMonth = resolveTimeRange('thisMonth', undefined, now);
  const lastMonth = resolveTimeRange('lastMonth', undefined, now);
  return [
    totalRequest(thisMonth, { interval: 'daily' }),
    totalRequest(lastMonth),
    topRequest(thisMonth, 'service', TOP_LIMIT),
    topRequest(thisMonth, 'account', TOP_LIMIT),
  ];
}

/** Fills the cache with Basic Cost's answers (errors are left to the page's own queries). */
export function prefetchBasicCost(queryClient: QueryClient, now: Date = new Date()): void {
  for (const body of basicCostRequests(now)) void queryClient.prefetchQuery(costAggrQuery(body));
}
