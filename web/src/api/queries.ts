import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';
import { getSession } from './session';
import type { CloudAccount, Customer, PublicConfig, User } from './types';

/** Keys of the queries shared by the shell and several features. */
export const sharedKeys = {
  config: ['auth', 'config'] as const,
  me: ['auth', 'me'] as const,
  customer: ['customer'] as const,
  accounts: ['accounts'] as const,
};

export const getPublicConfig = () => unwrap<PublicConfig>(api.GET('/v1/auth/config'));
export const getMe = () => unwrap<User>(api.GET('/v1/auth/me'));
export const getCustomer = () => unwrap<Customer>(api.GET('/v1/customer'));
export const getAccounts = () => unwrap<CloudAccount[]>(api.GET('/v1/account'));

export const publicConfigQuery = () =>
  queryOptions({ queryKey: sharedKeys.config, queryFn: getPublicConfig, staleTime: 5 * 60_000 });

export const meQuery = () =>
  queryOptions({
    queryKey: sharedKeys.me,
    queryFn: getMe,
    placeholderData: () => getSession()?.user,
  });

export const customerQuery = () => queryOptions({ queryKey: sharedKeys.customer, queryFn: getCustomer });

/** The account list is never cached (spec: GET /v1/account is not cached). */
export const accountsQuery = () =>
  queryOptions({ queryKey: sharedKeys.accounts, queryFn: getAccounts, staleTime: 0 });

export const useMe = () => useQuery(meQuery());
export const useCustomer = () => useQuery(customerQuery());
export const useAccounts = () => useQuery(accountsQuery());

/**
 * Used only when GET /v1/auth/config cannot be read: the server's documented defaults
 * (docs/API.md), so that the console still works with a conservative menu.
 */
export const FALLBACK_CONFIG: PublicConfig = {
  features: {
    oldCostDashboard: true,
    newCostDashboard: false,
    IAMTab: false,
    ComplianceTab: false,
    DiscoverJobTrigger: false,
    SnapshotSuccessTime: true,
    missionControlDashboard: true,
  },
  compliance_customer_ids: [],
  support_email: '',
  documentation_url: '',
  max_upload_bytes: 2 * 1024 ** 3,
  allow_signup: true,
};

export const usePublicConfig = () => useQuery(publicConfigQuery());

/** Feature flags, support e-mail and documentation URL from GET /v1/auth/config. */
export function useAppConfig(): PublicConfig {
  const { data } = usePublicConfig();
  return data ?? FALLBACK_CONFIG;
}
