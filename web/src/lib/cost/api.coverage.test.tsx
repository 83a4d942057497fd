import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { COST_REFETCH_DEBOUNCE_MS, useCostAggr, type CostAggrRequest, type CostAggrResponse } from './api';

const NOW = new Date('2026-11-23T12:00:00.000Z');

function answer(total: number): CostAggrResponse {
  return { data: [], summary: { accrued_cost: total, accrued_change: null, previous_cost: 0, currency: 'USD' }, total_groups: 0, warnings: [], currency: 'USD', converted: false, otherCurrencies: [] };
}

const body = (start: string): CostAggrRequest => ({ start_time: start, end_time: '2026-11-23T23:59:59.999Z', group_by_dimensions: ['service'] });

function sharedClient() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('cost answers (spec 1 §7, §9)', () => {
  it('are cached for 60 s: the same request within 60 s is not sent again, after 60 s it is', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const api = mockApi({ 'POST /v2/cost/aggr': { body: answer(7) } });
    const wrapper = sharedClient();
    const first = renderHook(() => useCostAggr(body('2026-11-01T00:00:00.000Z')), { wrapper });
    await waitFor(() => expect(first.result.current.data?.summary.accrued_cost).toBe(7));
    first.unmount();

    vi.setSystemTime(NOW.getTime() + 59_000);
    const within60s = renderHook(() => useCostAggr(body('2026-11-01T00:00:00.000Z')), { wrapper });
    expect(within60s.result.current.data?.summary.accrued_cost).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('POST', '/v2/cost/aggr')).toHaveLength(1);
    within60s.unmount();

    vi.setSystemTime(NOW.getTime() + 60_001);
    renderHook(() => useCostAggr(body('2026-11-01T00:00:00.000Z')), { wrapper });
    await waitFor(() => expect(api.callsTo('POST', '/v2/cost/aggr')).toHaveLength(2));
  });

  it('are asked again 1000 ms after the last change of the request, not before', async () => {
    vi.useFakeTimers({ now: NOW });
    const api = mockApi({ 'POST /v2/cost/aggr': { body: answer(1) } });
    const { rerender } = renderHook(({ start }) => useCostAggr(body(start), { debounceMs: COST_REFETCH_DEBOUNCE_MS }), {
      wrapper: sharedClient(),
      initialProps: { start: '2026-11-01T00:00:00.000Z' },
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.fetchMock).toHaveBeenCalledTimes(1);

    rerender({ start: '2026-11-02T00:00:00.000Z' });
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(api.fetchMock).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api.fetchMock).toHaveBeenCalledTimes(2);
    expect((api.callsTo('POST', '/v2/cost/aggr').at(-1)?.body as CostAggrRequest).start_time).toBe('2026-11-02T00:00:00.000Z');
  });
});
