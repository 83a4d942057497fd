import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { TeamsListItem } from '../types';
import { teamsKeys } from './keys';

/** GET /v1/api/teams/oauth/channel/{channel_id}/teams: the teams the signed-in user belongs to. */
export const getTeams = (channelId: number) =>
  unwrap<TeamsListItem[]>(
    api.GET('/v1/api/teams/oauth/channel/{channel_id}/teams', { params: { path: { channel_id: channelId } } }),
  );

export const teamsQuery = (channelId: number) =>
  queryOptions({ queryKey: teamsKeys.teams(channelId), queryFn: () => getTeams(channelId) });

export const useTeams = (channelId: number) => useQuery(teamsQuery(channelId));
