import type { Provider } from '../types';

export const PROVIDER_NAMES: Record<Provider, string> = { aws: 'AWS', gcp: 'GCP', azure: 'Azure' };

export const CONNECT_PATHS: Record<Provider, string> = {
  aws: '/settings/aws-connect',
  gcp: '/settings/gcp-connect',
  azure: '/settings/azure-connect',
};

/** A seen-only account's "Connect": the wizard with its id and name filled in. */
export function connectPath(provider: Provider, accountId?: string, accountName?: string): string {
  const params = new URLSearchParams();
  if (accountId) params.set('account_id', accountId);
  if (accountName) params.set('name', accountName);
  const query = params.toString();
  return query ? `${CONNECT_PATHS[provider]}?${query}` : CONNECT_PATHS[provider];
}
