/** The rule messages of docs/NOTIFICATIONS.md, word for word (the server answers them in 422/409). */
export const CHANNEL_RULE_MESSAGES = {
  type: 'Choose a channel type: email, slack, teams_webhook or webhook',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 100 characters',
  nameTaken: (name: string) => `A channel named "${name}" already exists`,
  email: 'Enter a valid email address',
  url: 'Enter a URL that starts with https://',
  urlTooLong: 'The URL must be at most 2048 characters',
  secretLength: 'The secret must be 16 to 256 characters',
} as const;

/** The page's own texts. */
export const NOTIFICATION_MESSAGES = {
  added: (name: string) => `Channel "${name}" added`,
  removed: (name: string) => `Channel "${name}" removed`,
  testDelivered: (name: string) => `Test message delivered to ${name}`,
  testNotDelivered: 'The test message was not delivered',
  addFailed: 'Failed to add the channel',
  removeFailed: 'Failed to remove the channel',
  channelsFailed: 'Failed to load notification channels',
  deliveriesFailed: 'Failed to load recent deliveries',
  notAdmin: 'Only owners and admins can add, test or remove channels.',
} as const;

/** Success toasts close after 5 s; error toasts stay until closed. */
export const SUCCESS_TOAST_MS = 5_000;
