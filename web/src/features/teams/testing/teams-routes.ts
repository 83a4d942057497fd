import type { MockReply } from '@/test/mock-api';
import type { TeamsListItem } from '../types';

/** The pending integration's id, as the login answer gives it. */
export const PENDING_CHANNEL_ID = 41;
export const AUTH_URL =
  'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=app-1&response_type=code&state=st-1';

export const TEAMS: TeamsListItem[] = [
  { id: 'team-finops', displayName: 'FinOps' },
  { id: 'team-platform', displayName: 'Platform' },
];

export const CHANNELS: Record<string, TeamsListItem[]> = {
  'team-finops': [
    { id: '19:general@thread.tacv2', displayName: 'General' },
    { id: '19:alerts@thread.tacv2', displayName: 'Cost alerts' },
  ],
  'team-platform': [],
};

const base = `/v1/api/teams/oauth/channel/${PENDING_CHANNEL_ID}`;

/** The Teams connect calls as the server answers them, for one pending integration. */
export function teamsConnectRoutes(overrides: Record<string, MockReply> = {}): Record<string, MockReply> {
  return {
    'GET /v1/api/teams/oauth/login': { body: { auth_url: AUTH_URL, channel_id: PENDING_CHANNEL_ID } },
    [`GET ${base}/teams`]: { body: TEAMS },
    ...Object.fromEntries(TEAMS.map((team) => [`GET ${base}/teams/${team.id}/channels`, { body: CHANNELS[team.id] }])),
    [`POST ${base}/teams/team-finops/channels/${encodeURIComponent('19:alerts@thread.tacv2')}`]: {
      body: {
        channel_id: PENDING_CHANNEL_ID,
        team_id: 'team-finops',
        team_channel_id: '19:alerts@thread.tacv2',
        expires_at: '2026-11-26T16:00:00Z',
      },
    },
    ...overrides,
  };
}
