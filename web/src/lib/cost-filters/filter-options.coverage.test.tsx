import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createQueryClient } from '@/app/query-client';
import { resolveTimeRange, type FilterOptionsResponse, type TimeRange } from '@/lib/cost';
import { mockApi } from '@/test/mock-api';
import { normaliseTagOptions, providersFromResponse, useFilterProviders, useProviderOptions } from './filter-options';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const november = resolveTimeRange('thisMonth', undefined, NOW);
const october = resolveTimeRange('lastMonth', undefined, NOW);

function answer(overrides: Record<string, unknown> = {}) {
  return {
    accounts: [], account_names: {}, accounts_by_provider: {}, regions: [], services: [], tags: {},
    cloud_providers: ['aws'], cost_type: [], usage_types: [], warnings: [], ...overrides,
  };
}

function sharedClient() {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

const startDates = (api: ReturnType<typeof mockApi>) =>
  api.callsTo('POST', '/v2/cost/filters').map((call) => (call.body as { start_date: string }).start_date);

describe('filter option timings (spec 1 §9)', () => {
  it('asks for the provider list 500 ms after the period last changed, not before', async () => {
    vi.useFakeTimers({ now: NOW });
    const api = mockApi({ 'POST /v2/cost/filters': { body: answer() } });
    const { rerender } = renderHook(({ range }: { range: TimeRange }) => useFilterProviders(range), {
      wrapper: sharedClient(),
      initialProps: { range: november },
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.fetchMock).toHaveBeenCalledTimes(1);
    rerender({ range: october });
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(api.fetchMock).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api.fetchMock).toHaveBeenCalledTimes(2);
    expect(startDates(api)).toEqual(['2026-11-01', '2026-10-01']);
  });

  it('asks for a provider\'s options 300 ms after the providers or the period last changed, not before', async () => {
    vi.useFakeTimers({ now: NOW });
    const api = mockApi({ 'POST /v2/cost/filters': { body: answer() } });
    const { result, rerender } = renderHook(({ range }: { range: TimeRange }) => useProviderOptions(['aws'], range), {
      wrapper: sharedClient(),
      initialProps: { range: november },
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.fetchMock).toHaveBeenCalledTimes(1);
    rerender({ range: october });
    await act(() => vi.advanceTimersByTimeAsync(299));
    expect(api.fetchMock).toHaveBeenCalledTimes(1);
    expect(result.current.isLoading).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api.fetchMock).toHaveBeenCalledTimes(2);
    expect(startDates(api)).toEqual(['2026-11-01', '2026-10-01']);
  });

  it('keeps a provider\'s options for 300000 ms, then asks again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const api = mockApi({ 'POST /v2/cost/filters': { body: answer({ services: ['AmazonEC2'] }) } });
    const wrapper = sharedClient();
    const first = renderHook(() => useProviderOptions(['aws'], november), { wrapper });
    await waitFor(() => expect(first.result.current.options.aws?.services).toEqual(['AmazonEC2']));
    first.unmount();

    vi.setSystemTime(NOW.getTime() + 299_000);
    const cached = renderHook(() => useProviderOptions(['aws'], november), { wrapper });
    await waitFor(() => expect(cached.result.current.options.aws?.services).toEqual(['AmazonEC2']));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('POST', '/v2/cost/filters')).toHaveLength(1);
    cached.unmount();

    vi.setSystemTime(NOW.getTime() + 300_001);
    renderHook(() => useProviderOptions(['aws'], november), { wrapper });
    await waitFor(() => expect(api.callsTo('POST', '/v2/cost/filters')).toHaveLength(2));
  });
});

describe('filter options answer (spec 1 §3)', () => {
  it('reads tag values given as a list, under "Values" or under "values"', () => {
    expect(normaliseTagOptions({ env: ['prod'], team: { Values: ['core'] }, owner: { values: ['ana', 'bo'] } })).toEqual({
      env: ['prod'],
      team: ['core'],
      owner: ['ana', 'bo'],
    });
  });

  it('reads the providers from cloud_providers, or from cloudProviders', () => {
    expect(providersFromResponse(answer({ cloud_providers: ['GCP', 'aws'] }) as FilterOptionsResponse)).toEqual(['aws', 'gcp']);
    const camel = { ...answer(), cloud_providers: undefined, cloudProviders: ['azure'] } as unknown as FilterOptionsResponse;
    expect(providersFromResponse(camel)).toEqual(['azure']);
  });
});
