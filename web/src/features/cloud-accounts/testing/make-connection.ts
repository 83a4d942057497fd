import type { CloudConnection, RegisterAwsResponse, SyncStatus } from '../types';

export function makeSync(overrides: Partial<SyncStatus> = {}): SyncStatus {
  return {
    state: 'succeeded',
    last_started_at: '2026-11-23T06:00:00Z',
    last_finished_at: '2026-11-23T06:02:00Z',
    last_error: null,
    last_details: null,
    requested_at: null,
    next_sync_at: '2026-11-23T12:00:00Z',
    ...overrides,
  };
}

/** The sync of a row that has nothing to sync (seen only, a member account): every field null. */
export function makeNoSync(): SyncStatus {
  return {
    state: null,
    last_started_at: null,
    last_finished_at: null,
    last_error: null,
    last_details: null,
    requested_at: null,
    next_sync_at: null,
  };
}

/** A connected AWS account whose check succeeded and whose last sync succeeded. */
export function makeConnection(overrides: Partial<CloudConnection> = {}): CloudConnection {
  return {
    id: 12,
    provider: 'aws',
    account_id: '123456789012',
    aws_account_id: '123456789012',
    account_name: 'Production',
    creation_time: '2026-11-20T10:00:00Z',
    iam_role_arn: 'arn:aws:iam::123456789012:role/CostscopeReadOnly',
    customer_id: 10,
    organization_id: null,
    parent_id: null,
    connected: true,
    export: { location: 's3://costscope-exports-123456789012/costscope/costscope-focus', format: 'focus-1.2' },
    registration: { State: 6, details: 'Role assumed; export location readable', started_at: '2026-11-20T10:00:00Z', finished_at: '2026-11-20T10:00:05Z' },
    sync: makeSync(),
    ...overrides,
  };
}

/** A row only seen in the cost data. */
export function makeSeenOnly(overrides: Partial<CloudConnection> = {}): CloudConnection {
  return makeConnection({
    id: null,
    account_id: '999988887777',
    aws_account_id: '999988887777',
    account_name: 'Seen in billing',
    iam_role_arn: null,
    connected: false,
    export: null,
    registration: null,
    sync: makeNoSync(),
    ...overrides,
  });
}

export function makeRegisterAnswer(overrides: Partial<RegisterAwsResponse> = {}): RegisterAwsResponse {
  return {
    Status: 'success',
    details: 'Account registered',
    accountNumber: '123456789012',
    OrgId: null,
    URL: 'http://localhost:3000/v1/aws/onboarding-template?format=focus-1.2',
    StackSetCmds: [
      'aws cloudformation create-stack-set --stack-set-name costscope-onboarding --template-body file://costscope-onboarding.yaml',
      'aws cloudformation create-stack-instances --stack-set-name costscope-onboarding --accounts 123456789012 --regions us-east-1',
    ],
    id: 12,
    external_id: 'cs-ext-42',
    ...overrides,
  };
}
