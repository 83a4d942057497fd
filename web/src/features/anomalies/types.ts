// The anomalies API (docs/ANOMALIES.md, "In the product"): aliases of the server's OpenAPI
// schemas, so that the pages and the server cannot disagree about a field.
import type { components } from '@/api/schema.gen';

type Schemas = components['schemas'];

/** `open` until someone dismisses it or marks it as expected (and back with Reopen). */
export type AnomalyStatus = Schemas['AnomalyStatus'];
export const ANOMALY_STATUSES: readonly AnomalyStatus[] = ['open', 'dismissed', 'expected'];

/** One run of anomalous days of one series (service series or tag series). */
export type Anomaly = Schemas['Anomaly'];

/** A usage type or resource of the run's first day, against its baseline. */
export type Contributor = Schemas['AnomalyContributor'];

/** GET /v1/anomalies: the list, the open count and the open impact per currency. */
export type AnomalyList = Schemas['AnomalyList'];

/** GET /v1/anomalies/{id}: the anomaly and its series, read and scanned again now. */
export type AnomalyDetail = Schemas['AnomalyDetail'];

/** One day of the detail's series; `expected`, `low`, `high` null while the series is young. */
export type AnomalySeriesPoint = Schemas['AnomalySeriesDay'];

/** GET and PUT /v1/anomalies/settings. `relativeThreshold` is a fraction (0.2 is 20 %). */
export type AnomalySettings = Schemas['AnomalySettingsDto'];

/** GET /v1/channels item (the settings' channel choices). */
export type Channel = Schemas['NotificationChannel'];
