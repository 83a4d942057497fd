/** Spec 2 §5 and §8 (Teams), word for word. */
export const TEAMS_MESSAGES = {
  connected: 'Successfully connected to Microsoft Teams!',
  connectFailed: 'Failed to connect to Microsoft Teams.',
  noChannelId: 'Authentication error: No channel ID found. Please try reconnecting.',
  noTeams: 'No teams found in your Microsoft Teams account...',
  noChannels: 'No channels found in the selected team...',
  fetchFailed: (message: string) => `Failed to fetch teams/channels: ${message}`,
  completeFailed: (message: string | undefined) => `Failed to complete the integration: ${message || 'Unknown error'}. Please try again.`,
  initiateFailed: (message: string) => `Failed to initiate connection: ${message}`,
  invalidAuthResponse: 'Invalid authentication response from server',
  selectBoth: 'Please select both a Team and a Channel before proceeding.',
  notAdmin: 'Only account owners and admins can connect Microsoft Teams.',
} as const;

/** The page's own labels. */
export const TEAMS_LABELS = {
  title: 'Connect Microsoft Teams',
  connect: 'Connect with Microsoft Teams',
  back: 'Back to Integrations',
  continue: 'Continue',
  connectAgain: 'Connect again',
  team: 'Team',
  channel: 'Channel',
  connectedTitle: 'Microsoft Teams Connected',
  processing: 'Processing your request...',
  clickHere: 'click here',
} as const;
