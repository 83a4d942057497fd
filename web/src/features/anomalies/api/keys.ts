import type { AnomalyStatus } from '../types';

/** The list's query: both days included; no status means every status. */
export interface AnomalyListQuery {
  start: string;
  end: string;
  status?: AnomalyStatus;
}

/**
 * Every key starts with 'anomalies', so a status change (which invalidates them all) also
 * refreshes Mission Control's card, whose key lives under the same root.
 */
export const anomalyKeys = {
  all: ['anomalies'] as const,
  list: (query: AnomalyListQuery) => ['anomalies', 'list', query] as const,
  detail: (id: number) => ['anomalies', 'detail', id] as const,
  settings: () => ['anomalies', 'settings'] as const,
};
