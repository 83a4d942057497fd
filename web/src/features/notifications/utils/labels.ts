import type { ChannelType, CreatableChannelType } from '../types';

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  email: 'E-mail',
  slack: 'Slack',
  teams_webhook: 'Teams workflow',
  webhook: 'Webhook',
  teams: 'Microsoft Teams',
};

/** Under the Target field of the Add dialog, per type. */
export const TARGET_HELP: Record<CreatableChannelType, string> = {
  email: 'Alerts are e-mailed to this address.',
  slack: 'The incoming-webhook URL of a Slack channel.',
  teams_webhook: 'The incoming-webhook URL of a Teams Workflows (Power Automate) flow.',
  webhook: 'Any HTTPS endpoint; each request is signed with the secret.',
};
