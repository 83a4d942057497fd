import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema.gen';
import { resolveTimeRange, toApiDate } from '@/lib/cost';

export type OpenAnomalies = components['schemas']['AnomalyList'];

/** The card's period: the last 30 days up to today, whatever the dashboard's range. */
export function openAnomaliesQuery(now?: Date): { start: string; end: string; status: 'open' } {
  const range = resolveTimeRange('last30Days', undefined, now);
  return { start: toApiDate(range.start), end: toApiDate(range.end), status: 'open' };
}

/**
 * GET /v1/anomalies of the last 30 days, open ones only (largest impact first, with the open
 * impact per currency). The key lives under the anomaly pages' root key ('anomalies'), so a
 * status changed there (which invalidates every 'anomalies' query) refreshes this card too,
 * without the features importing each other.
 */
export function useOpenAnomalies() {
  const query = openAnomaliesQuery();
  return useQuery({
    queryKey: ['anomalies', 'mission-control', query] as const,
    queryFn: () => unwrap<OpenAnomalies>(api.GET('/v1/anomalies', { params: { query } })),
  });
}
