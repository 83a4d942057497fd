/**
 * The server's answers (docs/NOTIFICATIONS.md, word for word) for what the form stops before
 * sending: no type, an empty name or an empty target. A 409 without a message falls back to
 * `nameTaken`. Every other rule's message comes from the server's 422 `details`.
 */
export const CHANNEL_RULE_MESSAGES = {
  type: 'Choose a channel type: email, slack, teams_webhook or webhook',
  nameRequired: 'Name is required',
  nameTaken: (name: string) => `A channel named "${name}" already exists`,
  /** What the server answers for an empty e-mail target. */
  emptyEmail: 'Enter a valid email address',
  /** What the server answers for an empty URL target. */
  emptyUrl: 'Enter a URL that starts with https://',
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

/** The digest page's own texts (the rules' messages come from the server's 422). */
export const DIGEST_MESSAGES = {
  title: 'Digest',
  loadFailed: 'Failed to load your digest settings',
  notSaved: 'Failed to save your digest settings',
  saved: 'Digest settings saved',
} as const;
