import { hasSessionHint } from '@/api/session';
import { preloadCostChart } from '@/components/cost/chart-loader';
import type { QueryClient } from '@tanstack/react-query';
import { prefetchDataOf, preloadPageOf } from './lazy-pages';

/** The signed-in application (MUI's theme, the shell and the routes): one lazy chunk. */
export const loadSignedInApp = () => import('../signed-in-app').then((m) => ({ default: m.SignedInApp }));

/**
 * A reloaded page of a signed-in browser: starts fetching the application's chunks, the page of
 * this address and (for a chart page) the chart library at once, while the session is being
 * restored, instead of one after the other once it is; and the page's first answers as soon as
 * `session` (the restore) gives a session. A signed-out browser fetches nothing.
 */
export function preloadForReload(pathname: string, queryClient: QueryClient, session: Promise<unknown>): void {
  if (!hasSessionHint()) return;
  void loadSignedInApp();
  if (preloadPageOf(pathname)) preloadCostChart();
  prefetchDataOf(pathname, queryClient, session);
}
