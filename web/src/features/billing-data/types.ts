// The ingestion API (docs/API-COST.md "Ingestion"), written by hand until the server's OpenAPI
// document publishes /v1/ingest; then these become aliases of the generated schema types.

export type IngestStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** The `format` part of an upload; leaving it out lets the server detect the format. */
export type IngestFormat = 'focus' | 'aws-cur' | 'aws-cur2' | 'gcp-billing' | 'azure-cost-details';

export interface IngestFile {
  name: string;
  bytes: number;
  format?: string | null;
  rows?: number | null;
}

export interface IngestBillingPeriod {
  provider: string;
  billing_account_id: string;
  billing_period_start: string;
}

export interface IngestTotal {
  provider: string;
  rows: number;
  billed_cost: number;
  effective_cost: number;
  list_cost: number;
  currency: string;
}

export interface IngestJob {
  id: number;
  status: IngestStatus;
  files: IngestFile[];
  format?: string | null;
  rows: number;
  replaced_rows: number;
  billing_periods: IngestBillingPeriod[];
  totals: IngestTotal[];
  error?: string | null;
  created_by: string;
  created_at: string;
  started_at?: string | null;
  finished_at?: string | null;
}

/** The 202 answer of POST /v1/ingest. */
export interface IngestAccepted {
  id: number;
  status: IngestStatus;
}
