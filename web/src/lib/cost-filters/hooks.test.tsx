import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createQueryClient } from '@/app/query-client';
import { resolveTimeRange } from '@/lib/cost';
import { mockApi } from '@/test/mock-api';
import { filterOptionKeys, pruneOptionsCache, useFilterProviders, useProviderOptions } from './filter-options';
import type { FlatFilter } from './types';
import { useAppliedFilters } from './use-applied-filters';
import { useFilterStore } from './use-filter-store';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const november = resolveTimeRange('thisMonth', undefined, NOW);
const filter: FlatFilter = { id: 'p', field: 'cloud_provider', operator: 'equals', value: ['aws'], logic: 'and', level: 0, created: NOW.toISOString() };

function withQueryClient() {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

function answer(overrides: Record<string, unknown> = {}) {
  return {
    accounts: [], account_names: {}, accounts_by_provider: {}, regions: [], services: [], tags: {},
    cloud_providers: [], cost_type: [], usage_types: [], warnings: [], ...overrides,
  };
}

describe('useFilterStore', () => {
  it('keeps presets under localStorage "filter_presets", next to other modules\' presets', () => {
    localStorage.setItem('filter_presets', JSON.stringify([{ id: 'b', name: 'Budget one', filters: [filter], logic: 'and', module: 'budget', created: NOW.toISOString() }]));
    const events: string[] = [];
    const { result } = renderHook(() => useFilterStore('cost_analysis', { onEvent: (e) => events.push(e.name) }));
    expect(result.current.presets).toEqual([]);
    act(() => result.current.add(filter));
    act(() => result.current.savePreset({ id: 'mine', name: 'AWS only' }));
    const stored = JSON.parse(localStorage.getItem('filter_presets')!) as Array<{ id: string; module: string }>;
    expect(stored.map((p) => [p.id, p.module])).toEqual([
      ['b', 'budget'],
      ['mine', 'cost_analysis'],
    ]);
    expect(result.current.activePresetId).toBe('mine');
    act(() => result.current.clear());
    expect(result.current.activePresetId).toBeNull();
    act(() => result.current.loadPreset('mine'));
    expect(result.current.filters).toEqual([filter]);
    act(() => result.current.deletePreset('mine'));
    expect(JSON.parse(localStorage.getItem('filter_presets')!)).toHaveLength(1);
    expect(events).toEqual(['filter_added', 'preset_saved', 'filters_cleared', 'preset_loaded']);
  });

  it('reads presets saved before, and shows errors', () => {
    localStorage.setItem('filter_presets', JSON.stringify([{ id: 'x', name: 'Saved', filters: [filter], logic: 'or', module: 'tags', created: NOW.toISOString() }, 'junk']));
    const { result } = renderHook(() => useFilterStore('tags'));
    expect(result.current.presets.map((p) => p.name)).toEqual(['Saved']);
    act(() => result.current.savePreset({ id: 'y', name: 'Nothing' }));
    expect(result.current).toMatchObject({ status: 'error', error: 'No filters to save' });
  });
});

describe('useAppliedFilters', () => {
  it('saves the filters 1000 ms after the last change and reads them back', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useAppliedFilters('cost_analysis'));
    expect(result.current.filters).toEqual([]);
    act(() => result.current.setFilters([filter]));
    expect(result.current.filters).toEqual([filter]);
    act(() => vi.advanceTimersByTime(999));
    expect(localStorage.getItem('cost_analysis_filter_state')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(JSON.parse(localStorage.getItem('cost_analysis_filter_state')!)).toEqual([filter]);
    unmount();
    const again = renderHook(() => useAppliedFilters('cost_analysis'));
    expect(again.result.current.filters).toEqual([filter]);
    act(() => again.result.current.clear());
    expect(again.result.current.filters).toEqual([]);
  });

  it('keeps each screen apart and ignores unreadable stored data', () => {
    localStorage.setItem('mission_control_filters', JSON.stringify([filter]));
    localStorage.setItem('cost_analysis_filter_state', JSON.stringify({ not: 'a list' }));
    expect(renderHook(() => useAppliedFilters('mission_control')).result.current.filters).toEqual([filter]);
    expect(renderHook(() => useAppliedFilters('cost_analysis')).result.current.filters).toEqual([]);
    expect(renderHook(() => useAppliedFilters('dashboard')).result.current.filters).toEqual([]);
  });
});

describe('filter options', () => {
  it('lists the providers with data from an unfiltered call', async () => {
    const api = mockApi({ 'POST /v2/cost/filters': { body: answer({ cloud_providers: ['Oracle', 'gcp', 'azure', 'Datadog'] }) } });
    const { result } = renderHook(() => useFilterProviders(november), { wrapper: withQueryClient() });
    // The clouds first in their usual order, then every other provider by name.
    await waitFor(() => expect(result.current.providers).toEqual(['gcp', 'azure', 'Datadog', 'Oracle']));
    expect(api.callsTo('POST', '/v2/cost/filters')[0].body).toEqual({ start_date: '2026-11-01', end_date: '2026-11-23', filters: [] });
  });

  it('falls back to AWS and GCP when the provider list fails', async () => {
    mockApi({ 'POST /v2/cost/filters': { status: 500, body: { message: 'boom' } } });
    const { result } = renderHook(() => useFilterProviders(november), { wrapper: withQueryClient() });
    await waitFor(() => expect(result.current.failed).toBe(true));
    expect(result.current.providers).toEqual(['aws', 'gcp']);
  });

  it('asks nothing for a custom range without dates', async () => {
    const api = mockApi({ 'POST /v2/cost/filters': { body: answer() } });
    const custom = { ...resolveTimeRange('custom', { startDate: '2026-11-01' }, NOW), startDate: '2026-11-01', endDate: undefined };
    const { result } = renderHook(() => useProviderOptions(['aws'], custom), { wrapper: withQueryClient() });
    renderHook(() => useFilterProviders(custom), { wrapper: withQueryClient() });
    await new Promise((r) => setTimeout(r, 400));
    expect(api.calls).toHaveLength(0);
    expect(result.current).toMatchObject({ isLoading: false, options: {}, errorMessage: null });
  });

  it('loads each provider\'s options with a cloud_providers equals group, and caches them', async () => {
    const api = mockApi({
      'POST /v2/cost/filters': ({ body }) => {
        const provider = (body as { filters: Array<{ cloud_providers: Array<{ values: string[] }> }> }).filters[0].cloud_providers[0].values[0];
        return provider === 'aws'
          ? { body: answer({ services: ['AmazonEC2'], regions: ['us-east-1'], accounts: ['111111111111', 'p'], accounts_by_provider: { aws: ['111111111111'] }, account_names: { '111111111111': 'Production' }, tags: { env: ['prod'], team: { Values: ['core'] } } }) }
          : { status: 503, body: { message: 'unavailable' } };
      },
    });
    const wrapper = withQueryClient();
    const { result, rerender } = renderHook(({ providers }) => useProviderOptions(providers, november), { wrapper, initialProps: { providers: ['aws', 'gcp'] as Array<'aws' | 'gcp'> } });
    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.options.aws).toEqual({
      services: ['AmazonEC2'], regions: ['us-east-1'], accounts: ['111111111111'], accountNames: { '111111111111': 'Production' }, tags: { env: ['prod'], team: ['core'] }, usageTypes: [], chargeTypes: [],
    });
    expect(result.current.options.gcp).toEqual({ services: [], regions: [], accounts: [], accountNames: {}, tags: {}, usageTypes: [], chargeTypes: [] });
    expect(result.current.failedProviders).toEqual(['gcp']);
    expect(result.current.errorMessage).toBe('Failed to fetch options for: GCP');
    expect(api.callsTo('POST', '/v2/cost/filters').map((c) => c.body)).toEqual([
      { start_date: '2026-11-01', end_date: '2026-11-23', filters: [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['aws'] }] }] },
      { start_date: '2026-11-01', end_date: '2026-11-23', filters: [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['gcp'] }] }] },
    ]);
    rerender({ providers: ['aws'] });
    await new Promise((r) => setTimeout(r, 400));
    rerender({ providers: ['aws', 'gcp'] });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    // AWS came from the cache; only the failed GCP call was asked again.
    expect(api.callsTo('POST', '/v2/cost/filters').map((c) => (c.body as { filters: Array<{ cloud_providers: Array<{ values: string[] }> }> }).filters[0].cloud_providers[0].values[0])).toEqual(['aws', 'gcp', 'gcp']);
  });
});

describe('pruneOptionsCache', () => {
  it('keeps the 50 newest option answers', () => {
    const queryClient = createQueryClient();
    for (let day = 1; day <= 55; day += 1) {
      const dates = { start_date: `2026-01-${String(day).padStart(2, '0')}`, end_date: '2026-11-23' };
      queryClient.setQueryData(filterOptionKeys.provider('aws', dates), { services: [] }, { updatedAt: day });
    }
    queryClient.setQueryData(['cost', 'other'], 1);
    pruneOptionsCache(queryClient);
    const left = queryClient.getQueryCache().findAll({ queryKey: filterOptionKeys.all });
    expect(left).toHaveLength(50);
    expect(left.map((q) => q.state.dataUpdatedAt).sort((a, b) => a - b)[0]).toBe(6);
    expect(queryClient.getQueryData(['cost', 'other'])).toBe(1);
  });
});
