// The cloud accounts API of issue 13 (/work/helpers/api-contract.md), written by hand.
// replace with schema types after make web-types (the server's OpenAPI will carry them).

export type Provider = 'aws' | 'gcp' | 'azure';

/** Registration check state: 1 in progress, 6 success, 7 failed (spec 2 §3 AWS account). */
export type RegistrationStateCode = 1 | 6 | 7;
export const REGISTRATION_IN_PROGRESS = 1;
export const REGISTRATION_SUCCESS = 6;
export const REGISTRATION_FAILED = 7;

export interface Registration {
  State: RegistrationStateCode;
  details: string | null;
  started_at: string;
  finished_at: string | null;
}

export type SyncRunState = 'running' | 'succeeded' | 'failed';

export interface SyncStatus {
  state: SyncRunState | null;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_error: string | null;
  last_details: string | null;
  requested_at: string | null;
  next_sync_at: string | null;
}

export type ExportFormat = 'focus-1.2' | 'cur-2.0';

export interface ExportInfo {
  location: string;
  format: string;
}

/** One row of GET /v1/account (the extended `CloudAccount`). */
export interface CloudConnection {
  /** Null: only seen in the cost data, not connected. */
  id: number | null;
  provider: Provider;
  /** AWS account id, GCP project id or Azure subscription id. */
  account_id: string;
  aws_account_id: string | null;
  account_name: string;
  creation_time: string;
  iam_role_arn: string | null;
  customer_id: number;
  organization_id: string | null;
  /** Set on a member account listed under organisation connection `parent_id`. */
  parent_id: number | null;
  connected: boolean;
  export: ExportInfo | null;
  registration: Registration | null;
  sync: SyncStatus | null;
}

/** POST /v1/register. */
export interface RegisterAwsRequest {
  aws_account_id?: string;
  account_name?: string;
  organization_id?: string;
  organization_name?: string;
  iam_role_arn?: string;
  external_id?: string;
  export_bucket?: string;
  export_prefix?: string;
  export_name?: string;
  export_region?: string;
  export_format?: ExportFormat;
}

export interface RegisterAwsResponse {
  Status: string;
  details: string;
  accountNumber: string;
  OrgId: string | null;
  URL: string;
  StackSetCmds: string[];
  id: number;
  external_id: string;
}

/** POST /v1/account/registration/job. */
export interface RegistrationJobRequest {
  account_id: string;
  restart?: boolean;
}

export interface RegistrationJob {
  State: RegistrationStateCode;
  details: string | null;
}

export interface DeleteResult {
  deleted: number;
}

/** GET /v1/gcp/account item. */
export interface GcpProject {
  id: number;
  account_id: string;
  account_name: string;
  created_at: string;
  subscription_id: string;
  billing_table: string;
  billing_project_id: string | null;
  registration: Registration | null;
  sync: SyncStatus | null;
}

/** POST /v1/gcp/account. `secret_key` is the service-account JSON key text. */
export interface ConnectGcpRequest {
  account_name: string;
  account_id: string;
  subscription_id: string;
  secret_key: string;
  billing_table: string;
  billing_project_id?: string;
}

export type AzureAuthKind = 'sas' | 'service_principal';

/** GET /v1/azure/account item (secrets never come back). */
export interface AzureExport {
  id: number;
  account_id: string;
  account_name: string;
  created_at: string;
  storage_account: string;
  container: string;
  directory: string;
  auth: AzureAuthKind;
  tenant_id: string | null;
  client_id: string | null;
  blob_endpoint: string | null;
  registration: Registration | null;
  sync: SyncStatus | null;
}

/** POST /v1/azure/account. */
export interface ConnectAzureRequest {
  account_id: string;
  account_name: string;
  storage_account: string;
  container: string;
  directory: string;
  auth: AzureAuthKind;
  sas_token?: string;
  tenant_id?: string;
  client_id?: string;
  client_secret?: string;
  blob_endpoint?: string;
}
