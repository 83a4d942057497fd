import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { TeamsChannelSelected } from '../types';
import { teamsKeys } from './keys';

export interface ChannelChoice {
  channelId: number;
  teamId: string;
  teamChannelId: string;
}

/**
 * POST /v1/api/teams/oauth/channel/{channel_id}/teams/{team_id}/channels/{team_channel_id}: the
 * integration is complete and becomes a notification channel of type `teams`.
 */
export const selectChannel = ({ channelId, teamId, teamChannelId }: ChannelChoice) =>
  unwrap<TeamsChannelSelected>(
    api.POST('/v1/api/teams/oauth/channel/{channel_id}/teams/{team_id}/channels/{team_channel_id}', {
      params: { path: { channel_id: channelId, team_id: teamId, team_channel_id: teamChannelId } },
    }),
  );

export function useSelectChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: selectChannel,
    // A new notification channel: every list that shows channels or integrations (Notifications,
    // Cloud Accounts' Teams table) is read again; the picker's own Graph lists are done with.
    onSuccess: () => queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== teamsKeys.all[0] }),
  });
}
