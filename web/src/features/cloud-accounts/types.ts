// The cloud accounts API of issue 13, from the server's generated OpenAPI types
// (`@/api/schema.gen`). Only what the schema cannot express is written here: the provider and
// state unions it types as plain strings / numbers, and the registration state codes.
import type { components } from '@/api/schema.gen';

type Schemas = components['schemas'];

/** One row of GET /v1/account (connected, or only seen in the cost data when `id` is null). */
export type CloudConnection = Schemas['CloudAccount'];
/** The registration check of a connection (spec 2 §3). */
export type Registration = Schemas['RegistrationDto'];
/** The sync of a connection; every field null for one that has nothing to sync. */
export type SyncStatus = Schemas['SyncDto'];
/** Where a connection's billing export is read from. */
export type ExportInfo = Schemas['ExportDto'];

/** POST /v1/register. */
export type RegisterAwsRequest = Schemas['RegisterRequest'];
export type RegisterAwsResponse = Schemas['RegisterResponse'];

/** POST /v1/account/registration/job. */
export type RegistrationJobRequest = Schemas['RegistrationJobRequest'];
export type RegistrationJob = Schemas['RegistrationJobResponse'];

/** DELETE /v1/account, /v1/gcp/account, /v1/azure/account. */
export type DeleteResult = Schemas['Deleted'];

/** GET/POST /v1/gcp/account item. */
export type GcpProject = Schemas['GcpAccount'];
/** POST /v1/gcp/account. `secret_key` is the service-account JSON key text. */
export type ConnectGcpRequest = Schemas['GcpConnectRequest'];

export type AzureAuthKind = Schemas['AzureAuthKind'];
/** GET/POST /v1/azure/account item (secrets never come back). */
export type AzureExport = Schemas['AzureAccount'];
/** POST /v1/azure/account. */
export type ConnectAzureRequest = Schemas['AzureConnectRequest'];

/** GET /v1/api/teams/configuredchannels item: a Microsoft Teams channel that receives notifications. */
export type TeamsIntegration = Schemas['TeamsConfiguredChannel'];

// ---- UI-side unions and constants (the schema types these as strings / numbers) ----

/** `CloudAccount.provider`; the page lists one table per provider and matches rows by it. */
export type Provider = 'aws' | 'gcp' | 'azure';
export const PROVIDERS: readonly Provider[] = ['aws', 'gcp', 'azure'];

/** Registration check state: 1 in progress, 6 success, 7 failed (spec 2 §3 AWS account). */
export type RegistrationStateCode = 1 | 6 | 7;
export const REGISTRATION_IN_PROGRESS = 1;
export const REGISTRATION_SUCCESS = 6;
export const REGISTRATION_FAILED = 7;

/** `SyncDto.state`. */
export type SyncRunState = 'running' | 'succeeded' | 'failed';

/** `RegisterRequest.export_format`. */
export type ExportFormat = 'focus-1.2' | 'cur-2.0';
