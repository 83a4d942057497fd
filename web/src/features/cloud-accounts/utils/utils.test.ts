import { makeConnection, makeSeenOnly, makeSync } from '../testing/make-connection';
import { sortConnections } from '../components/connections-table';
import { canManage, disabledReason, isDemoCustomer } from './permissions';
import { nextSort } from './sort';
import { connectionStateLabel, isSyncBusy, syncLabel } from './status';
import {
  MESSAGES,
  awsFormSchema,
  billingAccountFromTable,
  normalizeAwsAccountId,
  normalizeOrganizationId,
  serviceAccountKeyError,
  type AwsFormValues,
} from './validation';

const aws = (overrides: Partial<AwsFormValues>): AwsFormValues => ({
  mode: 'single',
  accountId: '123456789012',
  accountName: 'Production',
  organizationId: '',
  organizationName: '',
  format: 'focus-1.2',
  manual: false,
  roleArn: '',
  bucket: '',
  prefix: '',
  exportName: '',
  region: '',
  ...overrides,
});

function messages(values: AwsFormValues): string[] {
  const result = awsFormSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('AWS form rules (spec 2 §5 AWS)', () => {
  it('needs exactly 12 digits', () => {
    expect(messages(aws({ accountId: '12345678901' }))).toEqual([MESSAGES.awsAccountId]);
    expect(messages(aws({ accountId: '1234567890123' }))).toEqual([MESSAGES.awsAccountId]);
    expect(messages(aws({}))).toEqual([]);
  });

  it('needs a name longer than 2 characters, trimmed', () => {
    expect(messages(aws({ accountName: '  ab ' }))).toEqual(['Account name must be longer than 2 characters']);
    expect(messages(aws({ accountName: 'abc' }))).toEqual([]);
  });

  it('checks an organisation id and name', () => {
    expect(messages(aws({ mode: 'organization', organizationId: 'r-ab1', organizationName: 'ab' }))).toEqual([
      'Organization ID must follow the format: r-[0-9a-z]{4,32}',
      'Organization name must be longer than 2 characters',
    ]);
    expect(messages(aws({ mode: 'organization', organizationId: `r-${'a'.repeat(33)}`, organizationName: 'Org' }))).toEqual([
      MESSAGES.organizationId,
    ]);
    expect(messages(aws({ mode: 'organization', organizationId: 'r-ab12', organizationName: 'Acme Org' }))).toEqual([]);
  });

  it('checks the manual fields only when given', () => {
    expect(messages(aws({ manual: true }))).toEqual([]);
    expect(messages(aws({ manual: true, roleArn: 'arn:aws:iam::12:role/x', bucket: 'No_Such', region: 'mars' }))).toEqual([
      'IAM role ARN must look like arn:aws:iam::123456789012:role/CostscopeReadOnly',
      'Bucket name may contain only lowercase letters, digits, dots and hyphens',
      'Region must be an AWS region code such as us-east-1',
    ]);
    expect(messages(aws({ manual: true, bucket: 'ab' }))).toEqual(['Bucket name must be 3 to 63 characters long']);
    expect(messages(aws({ manual: true, bucket: '-abc' }))).toEqual(['Bucket name must begin and end with a letter or digit']);
    expect(messages(aws({ manual: true, roleArn: 'arn:aws:iam::123456789012:role/CostscopeReadOnly', bucket: 'my-bucket', region: 'eu-west-1' }))).toEqual([]);
  });

  it('keeps digits only in the account id, at most 12', () => {
    expect(normalizeAwsAccountId('12-34 56a78901234')).toBe('123456789012');
  });

  it('prefixes r- and strips invalid characters from the organisation id', () => {
    expect(normalizeOrganizationId('ab12')).toBe('r-ab12');
    expect(normalizeOrganizationId('r-AB_12!cd')).toBe('r-ab12cd');
    expect(normalizeOrganizationId('R-xy99')).toBe('r-xy99');
    expect(normalizeOrganizationId('r')).toBe('');
    expect(normalizeOrganizationId('')).toBe('');
    expect(normalizeOrganizationId(`r-${'a'.repeat(40)}`)).toBe(`r-${'a'.repeat(32)}`);
  });
});

describe('GCP billing account from the export table', () => {
  it('reads the standard and detailed export names, else nothing', () => {
    expect(billingAccountFromTable('p-123456.billing.gcp_billing_export_v1_0123ab_4567CD_89EF01')).toBe('0123AB-4567CD-89EF01');
    expect(billingAccountFromTable('p-123456.billing.gcp_billing_export_resource_v1_0123AB_4567CD_89EF01')).toBe('0123AB-4567CD-89EF01');
    expect(billingAccountFromTable('p-123456.billing.my_copy')).toBe('');
  });
});

describe('service-account key file', () => {
  it('accepts a service-account key and refuses anything else', () => {
    const key = JSON.stringify({ type: 'service_account', client_email: 'a@b.iam.gserviceaccount.com', private_key: '-----BEGIN' });
    expect(serviceAccountKeyError(key)).toBeNull();
    expect(serviceAccountKeyError('{not json')).toBe('Invalid JSON file. Please upload a valid service account key file.');
    expect(serviceAccountKeyError('{"type":"authorized_user"}')).toBe(MESSAGES.invalidKeyFile);
  });
});

describe('sync and state labels', () => {
  it('counts a requested sync as busy until it starts, and a running one until it ends', () => {
    expect(isSyncBusy(makeSync())).toBe(false);
    expect(isSyncBusy(makeSync({ requested_at: '2026-11-23T07:00:00Z' }))).toBe(true);
    expect(syncLabel(makeSync({ requested_at: '2026-11-23T07:00:00Z' }))).toBe('Requested');
    expect(isSyncBusy(makeSync({ requested_at: '2026-11-23T05:00:00Z' }))).toBe(false);
    expect(syncLabel(makeSync({ state: 'running' }))).toBe('Running');
    expect(syncLabel(null)).toBe('Never synced');
  });

  it('names the row state', () => {
    expect(connectionStateLabel(makeConnection())).toBe('Connected');
    expect(connectionStateLabel(makeSeenOnly())).toBe('Not connected');
    expect(connectionStateLabel(makeConnection({ registration: { State: 7, details: 'x', started_at: '', finished_at: null } }))).toBe('Failed');
    expect(connectionStateLabel(makeConnection({ parent_id: 3 }))).toBe('Member account');
  });
});

describe('sorting', () => {
  it('toggles the direction on the same field and starts a new field ascending', () => {
    expect(nextSort({ field: 'name', direction: 'asc' }, 'name')).toEqual({ field: 'name', direction: 'desc' });
    expect(nextSort({ field: 'name', direction: 'desc' }, 'account')).toEqual({ field: 'account', direction: 'asc' });
  });

  it('keeps member accounts under their organisation in either direction', () => {
    const org = makeConnection({ id: 1, account_id: '111111111111', account_name: 'M Org', organization_id: 'r-ab12' });
    const memberB = makeConnection({ id: 2, account_id: '222222222222', account_name: 'B member', parent_id: 1 });
    const memberZ = makeConnection({ id: 3, account_id: '333333333333', account_name: 'Z member', parent_id: 1 });
    const single = makeConnection({ id: 4, account_id: '444444444444', account_name: 'A single' });
    const rows = [org, memberZ, memberB, single];
    const names = (field: 'name', direction: 'asc' | 'desc') => sortConnections(rows, { field, direction }).map((r) => r.account_name);
    expect(names('name', 'asc')).toEqual(['A single', 'M Org', 'B member', 'Z member']);
    expect(names('name', 'desc')).toEqual(['M Org', 'Z member', 'B member', 'A single']);
  });
});

describe('permissions (spec 2 §6)', () => {
  it('lets owners and admins manage, never plain users or the demo', () => {
    expect(canManage({ adminLevel: true, demo: false })).toBe(true);
    expect(canManage({ adminLevel: false, demo: false })).toBe(false);
    expect(canManage({ adminLevel: true, demo: true })).toBe(false);
    expect(disabledReason({ adminLevel: false, demo: false })).toBe('Only account owners and admins can manage cloud accounts');
    expect(disabledReason({ adminLevel: true, demo: true })).toBe('Cloud accounts cannot be changed in the demo');
    expect(isDemoCustomer({ id: 7, is_demo: false })).toBe(true);
    expect(isDemoCustomer({ id: 10, is_demo: true })).toBe(true);
    expect(isDemoCustomer({ id: 10, is_demo: false })).toBe(false);
  });
});
