import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Client } from 'openapi-fetch';
import { api, unwrap } from '@/api/client';
import type { SavingsPaths, SavingsResponse, TagComplianceRequest, TagComplianceResponse } from './types';

/**
 * The app's one API client (bearer token, refresh, ApiError, 401 → sign out), typed with the
 * savings and tag-compliance paths until `schema.gen.ts` holds them; then this becomes `api`.
 */
export const savingsApi = api as unknown as Client<SavingsPaths>;

export const savingsKeys = {
  savings: ['savings'] as const,
  // Under the Tags page's ['tags', 'standard'] key: a standard tag added, edited or deleted
  // there reloads the violations too.
  tagCompliance: (request: TagComplianceRequest) => ['tags', 'standard', 'compliance', request] as const,
};

export const fetchSavings = (signal?: AbortSignal) => unwrap<SavingsResponse>(savingsApi.GET('/v1/savings', { signal }));

export const dismissRecommendation = async (id: string) => {
  await savingsApi.POST('/v1/savings/{id}/dismiss', { params: { path: { id } } });
};

export const restoreRecommendation = async (id: string) => {
  await savingsApi.DELETE('/v1/savings/{id}/dismiss', { params: { path: { id } } });
};

export const fetchTagCompliance = (request: TagComplianceRequest, signal?: AbortSignal) =>
  unwrap<TagComplianceResponse>(savingsApi.GET('/v1/tags/compliance', { params: { query: request }, signal }));

export const useSavings = () => useQuery({ queryKey: savingsKeys.savings, queryFn: ({ signal }) => fetchSavings(signal) });

/** Dismiss (`restore: false`) or restore a recommendation; the list reloads either way. */
export function useDismissal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, restore }: { id: string; restore: boolean }) => (restore ? restoreRecommendation(id) : dismissRecommendation(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: savingsKeys.savings }),
  });
}

export const useTagCompliance = (request: TagComplianceRequest = {}) =>
  useQuery({ queryKey: savingsKeys.tagCompliance(request), queryFn: ({ signal }) => fetchTagCompliance(request, signal) });
