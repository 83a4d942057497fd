import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/api-error';
import { mockApi } from '@/test/mock-api';
import { costErrorMessage, useCostAggr, useCostFilterOptions, useSpend, type CostAggrRequest, type CostAggrResponse } from './api';

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function answer(total: number): CostAggrResponse {
  return {
    data: [{ amount: total, grouping_path: 'AmazonEC2', grouping_values: ['AmazonEC2'], service: 'AmazonEC2' }],
    summary: { accrued_cost: total, accrued_change: null, previous_cost: 0, currency: 'USD' },
    total_groups: 1,
    warnings: [],
    currency: 'USD',
    converted: false,
    otherCurrencies: [],
  };
}

const body = (start: string): CostAggrRequest => ({ start_time: start, end_time: '2026-11-23', group_by_dimensions: ['service'] });

describe('costErrorMessage', () => {
  it('shows the server text when the server sent one', () => {
    expect(costErrorMessage(new ApiError('Maximum 4 group by dimensions allowed', 422, undefined, 'Maximum 4 group by dimensions allowed'))).toBe(
      'Maximum 4 group by dimensions allowed',
    );
    expect(costErrorMessage(new ApiError('database is down', 500, undefined, 'database is down'))).toBe('database is down');
  });

  it('says "Server error occurred" for a server failure without a text', () => {
    expect(costErrorMessage(new ApiError('Server error occurred', 502))).toBe('Server error occurred');
  });

  it('names the network when the server could not be reached', () => {
    expect(costErrorMessage(new ApiError('Network error - please check your connection', 0))).toBe(
      'Network error - please check your connection',
    );
    expect(costErrorMessage(new TypeError('Failed to fetch'))).toBe('Network error - please check your connection');
  });

  it('says "An unexpected error occurred" otherwise', () => {
    expect(costErrorMessage(new ApiError('Not found', 404))).toBe('An unexpected error occurred');
    expect(costErrorMessage(new Error('boom'))).toBe('An unexpected error occurred');
    expect(costErrorMessage('boom')).toBe('An unexpected error occurred');
  });
});

describe('cost hooks', () => {
  it('posts the body and returns the answer', async () => {
    const api = mockApi({ 'POST /v2/cost/aggr': { body: answer(42) } });
    const { result } = renderHook(() => useCostAggr(body('2026-11-01')), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.data?.summary.accrued_cost).toBe(42));
    expect(api.callsTo('POST', '/v2/cost/aggr').map((c) => c.body)).toEqual([body('2026-11-01')]);
  });

  it('asks nothing for a null body', async () => {
    const api = mockApi({ 'POST /v2/cost/spend': { body: {} } });
    const { result } = renderHook(() => useSpend(null), { wrapper: wrapper() });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(result.current.fetchStatus).toBe('idle');
    expect(api.calls).toHaveLength(0);
  });

  it('asks again only when the body changes, not when it is a new object with the same content', async () => {
    const api = mockApi({ 'POST /v2/cost/filters': { body: { accounts: [] } } });
    const { result, rerender } = renderHook(({ start }) => useCostFilterOptions({ start_date: start, end_date: '2026-11-23' }), {
      wrapper: wrapper(),
      initialProps: { start: '2026-11-01' },
    });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    rerender({ start: '2026-11-01' });
    rerender({ start: '2026-10-01' });
    await waitFor(() => expect(api.callsTo('POST', '/v2/cost/filters')).toHaveLength(2));
  });

  it('ignores the answer of an earlier request that arrives after the newer one', async () => {
    const pending = new Map<string, (total: number) => void>();
    const signals = new Map<string, AbortSignal>();
    const api = mockApi({
      'POST /v2/cost/aggr': (call) => {
        const start = (call.body as CostAggrRequest).start_time as string;
        return new Promise((resolve) => pending.set(start, (total) => resolve({ body: answer(total) })));
      },
    });
    const fetchMock = api.fetchMock;
    const { result, rerender } = renderHook(({ start }) => useCostAggr(body(start)), {
      wrapper: wrapper(),
      initialProps: { start: '2026-10-01' },
    });
    await waitFor(() => expect(pending.has('2026-10-01')).toBe(true));
    signals.set('2026-10-01', (fetchMock.mock.calls[0][0] as Request).signal);

    rerender({ start: '2026-11-01' });
    await waitFor(() => expect(pending.has('2026-11-01')).toBe(true));

    // The newer request answers first, then the slower older one.
    await act(async () => pending.get('2026-11-01')?.(200));
    await waitFor(() => expect(result.current.data?.summary.accrued_cost).toBe(200));
    await act(async () => pending.get('2026-10-01')?.(100));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(result.current.data?.summary.accrued_cost).toBe(200);
    // The superseded request was aborted.
    expect(signals.get('2026-10-01')?.aborted).toBe(true);
  });

  it('keeps the previous answer while the next one loads', async () => {
    const pending: Array<() => void> = [];
    let total = 0;
    mockApi({
      'POST /v2/cost/aggr': () => {
        total += 1;
        const mine = total;
        return new Promise((resolve) => pending.push(() => resolve({ body: answer(mine) })));
      },
    });
    const { result, rerender } = renderHook(({ start }) => useCostAggr(body(start)), {
      wrapper: wrapper(),
      initialProps: { start: '2026-10-01' },
    });
    await waitFor(() => expect(pending).toHaveLength(1));
    await act(async () => pending[0]());
    await waitFor(() => expect(result.current.data?.summary.accrued_cost).toBe(1));
    rerender({ start: '2026-11-01' });
    await waitFor(() => expect(pending).toHaveLength(2));
    expect(result.current.data?.summary.accrued_cost).toBe(1);
    expect(result.current.isPlaceholderData).toBe(true);
    await act(async () => pending[1]());
    await waitFor(() => expect(result.current.data?.summary.accrued_cost).toBe(2));
  });

  it('waits debounceMs after the last change before asking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockApi({ 'POST /v2/cost/aggr': (call) => ({ body: answer(Number((call.body as CostAggrRequest).start_time?.slice(8))) }) });
    const { result, rerender } = renderHook(({ start }) => useCostAggr(body(start), { debounceMs: 1000 }), {
      wrapper: wrapper(),
      initialProps: { start: '2026-11-01' },
    });
    await waitFor(() => expect(result.current.data?.summary.accrued_cost).toBe(1));
    rerender({ start: '2026-11-02' });
    await act(async () => vi.advanceTimersByTime(500));
    rerender({ start: '2026-11-03' });
    await act(async () => vi.advanceTimersByTime(900));
    expect(api.callsTo('POST', '/v2/cost/aggr')).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(200));
    await waitFor(() => expect(result.current.data?.summary.accrued_cost).toBe(3));
    expect(api.callsTo('POST', '/v2/cost/aggr').map((c) => (c.body as CostAggrRequest).start_time)).toEqual(['2026-11-01', '2026-11-03']);
  });

  it('fails with the API error of the answer', async () => {
    mockApi({ 'POST /v2/cost/spend': { status: 500, body: {} } });
    const { result } = renderHook(() => useSpend({ start_time: '2026-11-01', end_time: '2026-11-23' }), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(costErrorMessage(result.current.error)).toBe('Server error occurred');
  });
});
