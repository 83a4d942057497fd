import { useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  FILTER_OPTIONS_DEBOUNCE_MS,
  postCostFilters,
  toApiDate,
  useDebouncedValue,
  useStableValue,
  type FilterOptionsRequest,
  type FilterOptionsResponse,
  type TimeRange,
} from '@/lib/cost';
import { DEFAULT_PROVIDERS, FILTER_CACHE_MAX_ENTRIES, FILTER_CACHE_TTL_MS, PROVIDER_OPTIONS_DEBOUNCE_MS, providerChoices, providerCode, providerLabel } from './constants';
import type { Provider } from './types';

/** What a rule of one provider can pick from. */
export interface ProviderOptions {
  services: string[];
  regions: string[];
  accounts: string[];
  accountNames: Record<string, string>;
  tags: Record<string, string[]>;
  /** Usage types and charge types (`usage_types`, `cost_type`), for the panel's Search all values. */
  usageTypes: string[];
  chargeTypes: string[];
}

/** A provider whose options failed: nothing to pick, everything typed in (spec 1 §8). */
export const EMPTY_PROVIDER_OPTIONS: ProviderOptions = { services: [], regions: [], accounts: [], accountNames: {}, tags: {}, usageTypes: [], chargeTypes: [] };

export const filterOptionKeys = {
  all: ['cost-filters'] as const,
  providers: (dates: OptionDates) => ['cost-filters', 'providers', dates] as const,
  provider: (provider: Provider, dates: OptionDates) => ['cost-filters', 'provider', provider, dates] as const,
};

export interface OptionDates {
  start_date: string;
  end_date: string;
}

/** The dates of the options calls, or null when a custom range lacks a date (spec 1 §5: skipped). */
export function optionDates(timeRange: TimeRange): OptionDates | null {
  if (timeRange.preset === 'custom' && (!timeRange.startDate || !timeRange.endDate)) return null;
  return { start_date: toApiDate(timeRange.start), end_date: toApiDate(timeRange.end) };
}

/** The options call restricted to one provider (spec 1 §7). */
export function providerOptionsRequest(provider: Provider, dates: OptionDates): FilterOptionsRequest {
  return { ...dates, filters: [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: [provider] }] }] };
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v !== '');
}

/** Tag values may come as a list or under Values / values (spec 1 §3). */
export function normaliseTagOptions(tags: unknown): Record<string, string[]> {
  if (!tags || typeof tags !== 'object') return {};
  const out: Record<string, string[]> = {};
  for (const [key, raw] of Object.entries(tags as Record<string, unknown>)) {
    if (!key) continue;
    if (Array.isArray(raw)) out[key] = stringList(raw);
    else if (raw && typeof raw === 'object') {
      const holder = raw as { Values?: unknown; values?: unknown };
      out[key] = stringList(holder.Values ?? holder.values);
    } else out[key] = [];
  }
  return out;
}

/** One provider's options from its answer; its accounts from accounts_by_provider when present. */
export function toProviderOptions(provider: Provider, response: FilterOptionsResponse): ProviderOptions {
  const byProvider = response.accounts_by_provider?.[provider];
  return {
    services: stringList(response.services),
    regions: stringList(response.regions),
    accounts: stringList(byProvider ?? response.accounts),
    accountNames: response.account_names ?? {},
    tags: normaliseTagOptions(response.tags),
    usageTypes: stringList(response.usage_types),
    chargeTypes: stringList(response.cost_type),
  };
}

/**
 * The providers of an unfiltered answer (cloud_providers, also cloudProviders): the clouds first
 * in their usual order, then every other provider by name.
 */
export function providersFromResponse(response: FilterOptionsResponse): Provider[] {
  const raw = (response as FilterOptionsResponse & { cloudProviders?: unknown }).cloud_providers ?? (response as { cloudProviders?: unknown }).cloudProviders;
  const codes = stringList(raw).map(providerCode);
  return providerChoices(codes)
    .map((p) => p.value)
    .filter((p) => codes.includes(p));
}

export function failedOptionsMessage(providers: Provider[]): string {
  return `Failed to fetch options for: ${providers.map(providerLabel).join(', ')}`;
}

/** Keeps at most 50 unused option answers (spec 1 §9); answers in use are never dropped. */
export function pruneOptionsCache(queryClient: QueryClient, max = FILTER_CACHE_MAX_ENTRIES): void {
  const queries = queryClient
    .getQueryCache()
    .findAll({ queryKey: filterOptionKeys.all })
    .filter((q) => q.state.status === 'success')
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  for (const query of queries.slice(max)) {
    if (query.getObserversCount() === 0) queryClient.getQueryCache().remove(query);
  }
}

const CACHE_OPTIONS = { staleTime: FILTER_CACHE_TTL_MS, gcTime: FILTER_CACHE_TTL_MS } as const;

/**
 * The providers that have data in the range, from an unfiltered options call; AWS and GCP when
 * it fails (spec 1 §8). Nothing is asked while `enabled` is false or a custom range lacks dates.
 */
export function useFilterProviders(timeRange: TimeRange, enabled = true): { providers: Provider[]; isLoading: boolean; failed: boolean } {
  const queryClient = useQueryClient();
  const dates = useDebouncedValue(useStableValue(optionDates(timeRange)), FILTER_OPTIONS_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: dates ? filterOptionKeys.providers(dates) : ['cost-filters', 'providers', 'disabled'],
    queryFn: async ({ signal }) => {
      const answer = await postCostFilters({ ...dates!, filters: [] }, signal);
      pruneOptionsCache(queryClient);
      return providersFromResponse(answer);
    },
    enabled: enabled && dates !== null,
    ...CACHE_OPTIONS,
  });
  return {
    providers: query.isError ? [...DEFAULT_PROVIDERS] : (query.data ?? []),
    isLoading: query.isLoading,
    failed: query.isError,
  };
}

export interface ProviderOptionsState {
  options: Partial<Record<Provider, ProviderOptions>>;
  isLoading: boolean;
  failedProviders: Provider[];
  /** "Failed to fetch options for: {providers}", or null. */
  errorMessage: string | null;
}

/**
 * Each provider's options for the range: POST /v2/cost/filters with a cloud_providers equals
 * group, 300 ms after the last change, cached 300000 ms (≤ 50 answers). A failed provider gets
 * empty options (free-text entry) and is named in `errorMessage` (spec 1 §8).
 */
export function useProviderOptions(providers: Provider[], timeRange: TimeRange, enabled = true): ProviderOptionsState {
  const queryClient = useQueryClient();
  const wanted = useStableValue({ providers: [...new Set(providers)].sort(), dates: optionDates(timeRange) });
  const debounced = useDebouncedValue(wanted, PROVIDER_OPTIONS_DEBOUNCE_MS);
  const { dates } = debounced;
  const results = useQueries({
    queries: (dates && enabled ? debounced.providers : []).map((provider) => ({
      queryKey: filterOptionKeys.provider(provider, dates!),
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const answer = await postCostFilters(providerOptionsRequest(provider, dates!), signal);
        pruneOptionsCache(queryClient);
        return toProviderOptions(provider, answer);
      },
      ...CACHE_OPTIONS,
    })),
  });
  return useMemo(() => {
    const list = dates && enabled ? debounced.providers : [];
    const options: Partial<Record<Provider, ProviderOptions>> = {};
    const failedProviders: Provider[] = [];
    list.forEach((provider, i) => {
      const result = results[i];
      if (result?.isError) {
        failedProviders.push(provider);
        options[provider] = EMPTY_PROVIDER_OPTIONS;
      } else if (result?.data) options[provider] = result.data;
    });
    const pendingDebounce = enabled && wanted !== debounced && wanted.dates !== null;
    return {
      options,
      isLoading: pendingDebounce || results.some((r) => r.isLoading),
      failedProviders,
      errorMessage: failedProviders.length > 0 ? failedOptionsMessage(failedProviders) : null,
    };
  }, [results, dates, enabled, debounced, wanted]);
}
