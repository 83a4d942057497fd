import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { resolveTimeRange, toApiDate, type TimeRange } from '@/lib/cost';
import type { AnomalyListQuery } from '../api/keys';
import { ANOMALY_STATUSES, type AnomalyStatus } from '../types';

/** The list's status choice: one status, or every status. */
export type StatusFilter = AnomalyStatus | 'all';
export const STATUS_FILTERS: readonly StatusFilter[] = [...ANOMALY_STATUSES, 'all'];

/** The contract's defaults: the last 90 days, open anomalies. */
export const DEFAULT_PERIOD = 'last90Days';
export const DEFAULT_STATUS: StatusFilter = 'open';

function readStatus(value: string | null): StatusFilter {
  return (STATUS_FILTERS as readonly string[]).includes(value ?? '') ? (value as StatusFilter) : DEFAULT_STATUS;
}

/** The list's request for a range and status: both days included, no status for "All". */
export function listQuery(range: TimeRange, status: StatusFilter): AnomalyListQuery {
  const query: AnomalyListQuery = { start: toApiDate(range.start), end: toApiDate(range.end) };
  if (status !== 'all') query.status = status;
  return query;
}

/**
 * The period (`period`, and `start`/`end` for a custom one) and status of /anomalies, kept in
 * the URL so that Back from an anomaly returns to the same list, and a link can carry them.
 */
export function useAnomalyFilters(now?: Date) {
  const [params, setParams] = useSearchParams();
  const period = params.get('period') ?? DEFAULT_PERIOD;
  const start = params.get('start');
  const end = params.get('end');
  const day = (now ?? new Date()).toISOString().slice(0, 10);
  const range = useMemo(
    () => resolveTimeRange(period, period === 'custom' ? { startDate: start ?? undefined, endDate: end ?? undefined } : undefined, now),
    // Keyed on the UTC day rather than `now`: the range moves on at midnight only.
    [period, start, end, day],
  );
  const status = readStatus(params.get('status'));

  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setRange = useCallback(
    (next: TimeRange) =>
      update((search) => {
        search.set('period', next.preset);
        if (next.preset === 'custom' && next.startDate && next.endDate) {
          search.set('start', next.startDate);
          search.set('end', next.endDate);
        } else {
          search.delete('start');
          search.delete('end');
        }
      }),
    [update],
  );

  const setStatus = useCallback((next: StatusFilter) => update((search) => search.set('status', next)), [update]);

  return { range, status, setRange, setStatus, query: useMemo(() => listQuery(range, status), [range, status]) };
}
