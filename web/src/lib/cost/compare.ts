/**
 * POST /v2/cost/compare (docs/API-COST.md) and how a comparison is written on screen
 * (docs/ANALYST-FLOW.md "Compare", "Top movers"): used by the Compare page and Mission
 * Control's Top movers.
 *
 * The merge, change, status and ordering rules live in the server
 * (`costscope_core::cost::compare`); this file only calls it and formats what it answers.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema.gen';
import { COST_STALE_TIME_MS, type CostQueryOptions } from './api';
import { formatCurrency } from './format';
import { formatDayLabel } from './time-range';
import { useDebouncedValue, useStableValue } from './storage';

export type CompareRequest = components['schemas']['CompareRequest'];
export type CompareResponse = components['schemas']['CompareResponse'];
export type CompareRow = components['schemas']['CompareRow'];
export type CompareTotals = components['schemas']['CompareTotals'];
export type CompareStatus = components['schemas']['ChangeStatus'];
export type ComparePeriod = components['schemas']['CategoryPeriod'];
/** The `order_by` values of the API (docs/API-COST.md). */
export type CompareOrder = 'change' | 'increase' | 'decrease' | 'current' | 'previous' | 'percent_change';

/** At most this many rows per call (the API's bound). */
export const COMPARE_MAX_LIMIT = 1000;

export const compareKeys = {
  all: ['cost', 'compare'] as const,
  request: (body: CompareRequest | null) => ['cost', 'compare', body] as const,
};

export const postCostCompare = (body: CompareRequest, signal?: AbortSignal) =>
  unwrap<CompareResponse>(api.POST('/v2/cost/compare', { body, signal }));

/** POST /v2/cost/compare; `null` asks nothing. Keyed on the body like the other cost hooks. */
export function useCostCompare(body: CompareRequest | null, options?: CostQueryOptions): UseQueryResult<CompareResponse, Error> {
  const stable = useStableValue(body);
  const debounced = useDebouncedValue(stable, options?.debounceMs ?? 0);
  return useQuery({
    queryKey: debounced === null ? [...compareKeys.request(null), 'disabled'] : compareKeys.request(debounced),
    queryFn: ({ signal }) => {
      if (debounced === null) throw new Error('No request to send');
      return postCostCompare(debounced, signal);
    },
    enabled: debounced !== null,
    placeholderData: keepPreviousData,
    staleTime: COST_STALE_TIME_MS,
  });
}

/**
 * A compared range as the screens name it (UTC): "Oct 6 – Oct 31, 2026" within one year,
 * "Dec 6, 2025 – Jan 4, 2026" across two, "Oct 6, 2026" for one day.
 */
export function formatComparedRange(period: ComparePeriod): string {
  const first = formatDayLabel(period.start_time);
  const last = formatDayLabel(period.end_time);
  if (!first || !last) return '';
  if (first === last) return first;
  const year = (label: string) => label.slice(label.lastIndexOf(',') + 1).trim();
  if (year(first) === year(last)) return `${first.slice(0, first.lastIndexOf(','))} – ${last}`;
  return `${first} – ${last}`;
}

/** "vs Oct 6 – Oct 31, 2026": which period a comparison is made with. */
export function comparedWithLabel(period: ComparePeriod): string {
  return `vs ${formatComparedRange(period)}`;
}

/** A signed amount: "+$234.50", "-$3.00", "$0.00" (no sign when it rounds to zero). */
export function formatSignedAmount(amount: number, currency?: string | null, decimals?: number): string {
  const text = formatCurrency(amount, { currency, decimals });
  const zero = formatCurrency(0, { currency, decimals });
  if (text === zero || text.startsWith('-')) return text;
  return `+${text}`;
}

/**
 * A percent change told by arrow and text, never by colour alone: "▲ 12.5 %", "▼ 3.0 %",
 * "0.0 %"; "New" when there was nothing before, "—" when both amounts are 0.
 */
export function formatChangePercent(row: Pick<CompareRow, 'current' | 'previous'> & { percent_change?: number | null }): string {
  const percent = row.percent_change;
  if (percent === null || percent === undefined || !Number.isFinite(percent)) {
    return row.previous === 0 && row.current !== 0 ? 'New' : '—';
  }
  const rounded = Math.round(percent * 10) / 10;
  if (rounded === 0) return '0.0 %';
  return `${rounded > 0 ? '▲' : '▼'} ${Math.abs(rounded).toFixed(1)} %`;
}

/** The direction of a change for styling (the text says it too). */
export function changeDirection(change: number): 'up' | 'down' | 'flat' {
  if (Math.abs(change) < 0.005) return 'flat';
  return change > 0 ? 'up' : 'down';
}
