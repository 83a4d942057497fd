import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { TeamsListItem } from '../types';
import { teamsKeys } from './keys';

/** GET /v1/api/teams/oauth/channel/{channel_id}/teams/{team_id}/channels: one team's channels. */
export const getTeamChannels = (channelId: number, teamId: string) =>
  unwrap<TeamsListItem[]>(
    api.GET('/v1/api/teams/oauth/channel/{channel_id}/teams/{team_id}/channels', {
      params: { path: { channel_id: channelId, team_id: teamId } },
    }),
  );

export const teamChannelsQuery = (channelId: number, teamId: string) =>
  queryOptions({ queryKey: teamsKeys.channels(channelId, teamId), queryFn: () => getTeamChannels(channelId, teamId) });

/** Read once a team is chosen. */
export const useTeamChannels = (channelId: number, teamId: string | null) =>
  useQuery({ ...teamChannelsQuery(channelId, teamId ?? ''), enabled: teamId !== null });
