import type { AuthResponse, CloudAccount, Customer, PublicConfig, User } from '@/api/types';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    customer_id: 10,
    name: 'Olivia Owner',
    email: 'olivia@example.com',
    role: 'owner',
    status: 'active',
    created_at: '2026-11-01T10:00:00Z',
    ...overrides,
  };
}

export function makeConfig(overrides: Partial<PublicConfig> = {}, features: Partial<PublicConfig['features']> = {}): PublicConfig {
  return {
    features: {
      oldCostDashboard: true,
      newCostDashboard: false,
      IAMTab: false,
      ComplianceTab: false,
      DiscoverJobTrigger: false,
      SnapshotSuccessTime: true,
      missionControlDashboard: true,
      ...features,
    },
    compliance_customer_ids: [112, 3],
    support_email: 'support@costscope.test',
    documentation_url: 'https://docs.costscope.test',
    max_upload_bytes: 2 * 1024 ** 3,
    allow_signup: true,
    ...overrides,
  };
}

export function makeCustomer(overrides: Partial<Customer> = {}): Customer {
  const end = new Date(Date.now() + 20 * 24 * 3600 * 1000);
  return {
    id: 10,
    name: 'Acme',
    trialEndDate: end.toISOString(),
    Tier: 0,
    EndTime: Math.floor(end.getTime() / 1000),
    Role: 'owner',
    EmailID: 'olivia@example.com',
    OwnerName: 'Olivia Owner',
    OwnerEmailID: 'olivia@example.com',
    is_demo: false,
    ...overrides,
  };
}

export function makeAccount(overrides: Partial<CloudAccount> = {}): CloudAccount {
  return {
    id: 1,
    provider: 'aws',
    account_id: '123456789012',
    aws_account_id: '123456789012',
    account_name: 'Production',
    creation_time: '2026-10-01T00:00:00Z',
    connected: true,
    customer_id: 10,
    sync: {},
    ...overrides,
  };
}

export function makeAuth(user: User = makeUser(), overrides: Partial<AuthResponse> = {}): AuthResponse {
  return {
    access_token: 'access-1',
    token_type: 'Bearer',
    expires_in: 900,
    user,
    ...overrides,
  };
}

export interface AppData {
  config?: PublicConfig;
  me?: User;
  customer?: Customer;
  accounts?: CloudAccount[];
  users?: User[];
}

/** The answers every signed-in page needs: GET config, me, customer, account (and users). */
export function appRoutes({ config = makeConfig(), me = makeUser(), customer = makeCustomer(), accounts = [], users }: AppData = {}) {
  return {
    'GET /v1/auth/config': { body: config },
    'GET /v1/auth/me': { body: me },
    'GET /v1/customer': { body: customer },
    'GET /v1/account': { body: accounts },
    'GET /v1/users': { body: users ?? [me] },
    'POST /v1/auth/logout': { status: 204 },
  };
}
