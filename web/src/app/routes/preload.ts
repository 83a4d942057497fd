import { hasSessionHint } from '@/api/session';
import { preloadCostChart } from '@/components/cost/chart-loader';
import { preloadPageOf } from './lazy-pages';

/** The signed-in application (MUI's theme, the shell and the routes): one lazy chunk. */
export const loadSignedInApp = () => import('../signed-in-app').then((m) => ({ default: m.SignedInApp }));

/**
 * A reloaded page of a signed-in browser: starts fetching the application's chunks, the page of
 * this address and (for a chart page) the chart library at once, while the session is being
 * restored, instead of one after the other once it is. A signed-out browser fetches nothing.
 */
export function preloadForReload(pathname: string): void {
  if (!hasSessionHint()) return;
  void loadSignedInApp();
  if (preloadPageOf(pathname)) preloadCostChart();
}
