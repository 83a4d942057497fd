// The ingestion API (docs/API-COST.md "Ingestion"), from the server's generated OpenAPI types.
import type { components } from '@/api/schema.gen';

type Schemas = components['schemas'];

export type IngestStatus = Schemas['IngestStatus'];
export type IngestFile = Schemas['IngestJobFile'];
export type IngestBillingPeriod = Schemas['IngestBillingPeriod'];
export type IngestTotal = Schemas['IngestTotals'];
export type IngestJob = Schemas['IngestJob'];
export type IngestProgress = Schemas['IngestJobProgress'];
export type IngestPhase = Schemas['IngestPhase'];
/** The 202 answer of POST /v1/ingest. */
export type IngestAccepted = Schemas['UploadAccepted'];

/**
 * The `format` part of an upload (the schema types it as a string; the server answers 422 to
 * anything else). Left out, the server detects the format of each file.
 */
export type IngestFormat = 'focus' | 'aws-cur' | 'aws-cur2' | 'gcp-billing' | 'azure-cost-details';
