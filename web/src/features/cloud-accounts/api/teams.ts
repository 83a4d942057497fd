import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@/api/api-error';
import { api, unwrap } from '@/api/client';
import type { TeamsIntegration } from '../types';
import { cloudKeys } from './keys';

/** GET /v1/api/teams/configuredchannels; its 404 means none is configured (spec 2 §7). */
export async function getTeamsIntegrations(): Promise<TeamsIntegration[]> {
  try {
    return await unwrap<TeamsIntegration[]>(api.GET('/v1/api/teams/configuredchannels'));
  } catch (error) {
    if (isApiError(error) && error.status === 404) return [];
    throw error;
  }
}

/** Read on every visit: a channel connected a moment ago shows at once. */
export const teamsIntegrationsQuery = () =>
  queryOptions({ queryKey: cloudKeys.teams, queryFn: getTeamsIntegrations, staleTime: 0 });

export const useTeamsIntegrations = () => useQuery(teamsIntegrationsQuery());

/** DELETE /v1/api/teams/oauth/channel?channel_id=…: the integration and its notification channel go. */
export async function removeTeamsIntegration(channelId: number): Promise<void> {
  await api.DELETE('/v1/api/teams/oauth/channel', { params: { query: { channel_id: channelId } } });
}

export function useRemoveTeamsIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTeamsIntegration,
    // The integration was a notification channel too: every list that shows channels reads again.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
