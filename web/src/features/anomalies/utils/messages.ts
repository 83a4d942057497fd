/** The anomaly pages' own texts (the rules' messages come from the server's answers). */
export const ANOMALY_MESSAGES = {
  pageTitle: 'Anomalies',
  pageSubtitle: 'Days when a service or tag cost more than expected.',
  listFailed: 'Failed to load anomalies',
  detailFailed: 'Failed to load the anomaly',
  /** The server's 404 (docs/ANOMALIES.md), also shown for an id that is not a number. */
  notFound: 'No anomaly found.',
  empty: (status: string) => (status === 'all' ? 'No anomalies in this period' : `No ${status} anomalies in this period`),
  emptyHint: 'Anomalies are found after each billing data load.',
  statusFailed: 'The status could not be changed',
  settingsTitle: 'Detection settings',
  settingsFailed: 'Failed to load the anomaly settings',
  settingsSaved: 'Anomaly settings saved',
  settingsNotSaved: 'The anomaly settings could not be saved',
  notANumber: 'Enter a number',
  channelsFailed: 'The notification channels could not be loaded',
  tagKeysFailed: 'The tag keys could not be loaded',
} as const;
