import { z } from 'zod/mini';

/**
 * The messages of spec 2 §5 AWS / GCP, word for word, and the server's own for the fields beyond
 * the spec (costscope_core::cloud_accounts, http/accounts/azure.rs). The server checks every
 * rule and answers 422 with these messages; the form checks the plain ones first so that a
 * person sees them before sending, and shows the server's per field for the rest.
 */
export const MESSAGES = {
  awsAccountId: 'AWS Account ID must be exactly 12 digits',
  organizationId: 'Organization ID must follow the format: r-[0-9a-z]{4,32}',
  accountName: 'Account name must be longer than 2 characters',
  organizationName: 'Organization name must be longer than 2 characters',
  roleArn: 'IAM role ARN must look like arn:aws:iam::123456789012:role/CostscopeReadOnly',
  bucketLength: 'Bucket name must be 3 to 63 characters long',
  bucketChars: 'Bucket name may contain only lowercase letters, digits, dots and hyphens',
  bucketEnds: 'Bucket name must begin and end with a letter or digit',
  region: 'Region must be an AWS region code such as us-east-1',
  gcpProjectId: 'Project ID is required',
  gcpProjectIdLength: 'Project ID must be at most 500 characters',
  gcpNameLength: 'Name must be at most 500 characters',
  billingTable: 'Billing export table must be project.dataset.table',
  invalidKeyFile: 'Invalid JSON file. Please upload a valid service account key file.',
  keyFileRequired: 'Please upload a service account key file',
  keyFileExtension: 'The key file must be a .json file',
  azureSubscription: 'Subscription ID must be a GUID such as 00000000-0000-0000-0000-000000000000',
  azureName: 'Account name must be longer than 2 characters',
  storageAccount: 'Storage account name must be 3 to 24 lowercase letters and digits',
  container:
    'Container name must be 3 to 63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit',
  sasToken: 'SAS token is required',
  tenantId: 'Tenant ID must be a GUID such as 00000000-0000-0000-0000-000000000000',
  clientId: 'Client ID must be a GUID such as 00000000-0000-0000-0000-000000000000',
  clientSecret: 'Client secret is required',
  blobEndpoint: 'Blob endpoint must be an http or https URL such as https://account.blob.core.windows.net',
} as const;

export const GCP_MAX_LENGTH = 500;

const AWS_ACCOUNT_ID = /^\d{12}$/;
const ORGANIZATION_ID = /^r-[0-9a-z]{4,32}$/;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/;
/** The first broken S3 bucket naming rule, or null (the server checks the rest). */
function bucketError(bucket: string): string | null {
  if (bucket.length < 3 || bucket.length > 63) return MESSAGES.bucketLength;
  if (!/^[a-z0-9.-]+$/.test(bucket)) return MESSAGES.bucketChars;
  if (!/^[a-z0-9].*[a-z0-9]$/.test(bucket)) return MESSAGES.bucketEnds;
  return null;
}
const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BQ_TABLE = /^([a-z][a-z0-9-]{4,28}[a-z0-9]|[a-z0-9.-]+:[a-z][a-z0-9-]{4,28}[a-z0-9])\.\w{1,1024}\.\w{1,1024}$/;
const STORAGE_ACCOUNT = /^[a-z0-9]{3,24}$/;
const CONTAINER = /^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$/;

/** The AWS id input keeps digits only, at most 12. */
export function normalizeAwsAccountId(input: string): string {
  return input.replace(/\D/g, '').slice(0, 12);
}

/**
 * The organisation id input (spec 2 §5): prefixes `r-` and strips invalid characters
 * (anything but lowercase letters and digits after the prefix), at most 32 after `r-`.
 */
export function normalizeOrganizationId(input: string): string {
  // Deleting back over the prefix empties the field instead of putting the prefix back.
  if (input === '' || input === 'r' || input === 'R') return '';
  const rest = input.startsWith('r-') ? input.slice(2) : input.replace(/^r-?/i, '');
  const cleaned = rest.toLowerCase().replace(/[^0-9a-z]/g, '').slice(0, 32);
  return `r-${cleaned}`;
}

function longerThanTwo(value: string): boolean {
  return value.trim().length > 2;
}

export const awsFormSchema = z
  .object({
    mode: z.enum(['single', 'organization']),
    accountId: z.string(),
    accountName: z.string(),
    organizationId: z.string(),
    organizationName: z.string(),
    format: z.enum(['focus-1.2', 'cur-2.0']),
    manual: z.boolean(),
    roleArn: z.string(),
    bucket: z.string(),
    prefix: z.string(),
    exportName: z.string(),
    region: z.string(),
  })
  .check(
    z.superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.issues.push({ code: 'custom', message, path: [path], input: v });
      if (!AWS_ACCOUNT_ID.test(v.accountId)) issue('accountId', MESSAGES.awsAccountId);
      if (v.mode === 'single') {
        if (!longerThanTwo(v.accountName)) issue('accountName', MESSAGES.accountName);
      } else {
        if (!ORGANIZATION_ID.test(v.organizationId)) issue('organizationId', MESSAGES.organizationId);
        if (!longerThanTwo(v.organizationName)) issue('organizationName', MESSAGES.organizationName);
      }
      if (v.manual) {
        if (v.roleArn.trim() && !ROLE_ARN.test(v.roleArn.trim())) issue('roleArn', MESSAGES.roleArn);
        const bucket = v.bucket.trim() ? bucketError(v.bucket.trim()) : null;
        if (bucket) issue('bucket', bucket);
        if (v.region.trim() && !REGION.test(v.region.trim())) issue('region', MESSAGES.region);
      }
    }),
  );
export type AwsFormValues = z.infer<typeof awsFormSchema>;

export const gcpFormSchema = z
  .object({
    projectId: z.string(),
    projectName: z.string(),
    billingTable: z.string(),
    billingProjectId: z.string(),
  })
  .check(
    z.superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.issues.push({ code: 'custom', message, path: [path], input: v });
      if (!v.projectId.trim()) issue('projectId', MESSAGES.gcpProjectId);
      else if (v.projectId.trim().length > GCP_MAX_LENGTH) issue('projectId', MESSAGES.gcpProjectIdLength);
      if (v.projectName.trim().length > GCP_MAX_LENGTH) issue('projectName', MESSAGES.gcpNameLength);
      if (!BQ_TABLE.test(v.billingTable.trim())) issue('billingTable', MESSAGES.billingTable);
    }),
  );
export type GcpFormValues = z.infer<typeof gcpFormSchema>;

export const azureFormSchema = z
  .object({
    subscriptionId: z.string(),
    name: z.string(),
    storageAccount: z.string(),
    container: z.string(),
    directory: z.string(),
    auth: z.enum(['sas', 'service_principal']),
    sasToken: z.string(),
    tenantId: z.string(),
    clientId: z.string(),
    clientSecret: z.string(),
    blobEndpoint: z.string(),
  })
  .check(
    z.superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.issues.push({ code: 'custom', message, path: [path], input: v });
      if (!GUID.test(v.subscriptionId.trim())) issue('subscriptionId', MESSAGES.azureSubscription);
      if (!longerThanTwo(v.name)) issue('name', MESSAGES.azureName);
      if (!STORAGE_ACCOUNT.test(v.storageAccount.trim())) issue('storageAccount', MESSAGES.storageAccount);
      if (!CONTAINER.test(v.container.trim())) issue('container', MESSAGES.container);
      if (v.auth === 'sas') {
        if (!v.sasToken.trim()) issue('sasToken', MESSAGES.sasToken);
      } else {
        if (!GUID.test(v.tenantId.trim())) issue('tenantId', MESSAGES.tenantId);
        if (!GUID.test(v.clientId.trim())) issue('clientId', MESSAGES.clientId);
        if (!v.clientSecret) issue('clientSecret', MESSAGES.clientSecret);
      }
      if (v.blobEndpoint.trim() && !/^https?:\/\/\S+$/.test(v.blobEndpoint.trim())) issue('blobEndpoint', MESSAGES.blobEndpoint);
    }),
  );
export type AzureFormValues = z.infer<typeof azureFormSchema>;

/**
 * A service-account key file's text: JSON with `type: service_account`, `client_email` and
 * `private_key`. Null when it is one, else the message to show.
 */
export function serviceAccountKeyError(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return MESSAGES.invalidKeyFile;
  }
  if (!parsed || typeof parsed !== 'object') return MESSAGES.invalidKeyFile;
  const key = parsed as Record<string, unknown>;
  if (key.type !== 'service_account' || typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    return MESSAGES.invalidKeyFile;
  }
  return null;
}

/**
 * The Cloud Billing account of a standard or detailed export table: its name ends with the
 * billing account id, dashes written as underscores (`gcp_billing_export_v1_0123AB_4567CD_89EF01`).
 * Empty when the table is named otherwise.
 */
export function billingAccountFromTable(table: string): string {
  const match = /gcp_billing_export(?:_resource)?_v1_([0-9A-F]{6})_([0-9A-F]{6})_([0-9A-F]{6})$/i.exec(table.trim());
  return match ? `${match[1]}-${match[2]}-${match[3]}`.toUpperCase() : '';
}

/** The server's 422 details `{field: [messages]}`, as one message per field. */
export function fieldErrors(details: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(details ?? {})) {
    const first = Array.isArray(value) ? value.find((m) => typeof m === 'string') : typeof value === 'string' ? value : undefined;
    if (first) out[field] = first;
  }
  return out;
}
