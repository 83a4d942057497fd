export const teamsKeys = {
  all: ['teams'] as const,
  teams: (channelId: number) => ['teams', 'joined-teams', channelId] as const,
  channels: (channelId: number, teamId: string) => ['teams', 'team-channels', channelId, teamId] as const,
};
