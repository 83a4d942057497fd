import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { CloudConnection, DeleteResult, Provider } from '../types';
import { isSyncBusy } from '../utils/status';
import { cloudKeys } from './keys';

/** While a sync is requested or running, the lists are re-read this often. */
export const SYNC_REFRESH_MS = 5_000;

export const getConnections = () => unwrap<CloudConnection[]>(api.GET('/v1/account'));

/** The account list is never cached (spec 2 §7: GET /v1/account is not cached). */
export const connectionsQuery = () =>
  queryOptions({
    queryKey: cloudKeys.accounts,
    queryFn: getConnections,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.some((row) => isSyncBusy(row.sync) || row.registration?.State === 1) ? SYNC_REFRESH_MS : false,
  });

export const useConnections = () => useQuery(connectionsQuery());

function useInvalidateLists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts });
}

/** POST /v1/account/{id}/sync: 202 with the connection, its sync requested. */
export const requestSync = (id: number) =>
  unwrap<CloudConnection>(api.POST('/v1/account/{id}/sync', { params: { path: { id } } }));

export function useRequestSync() {
  const invalidate = useInvalidateLists();
  return useMutation({ mutationFn: requestSync, onSuccess: invalidate });
}

/** Removal per provider: AWS by account ids, GCP and Azure by their account id. */
export function removeConnection(provider: Provider, accountId: string): Promise<DeleteResult> {
  if (provider === 'aws') return unwrap<DeleteResult>(api.DELETE('/v1/account', { body: { account_ids: [accountId] } }));
  if (provider === 'gcp') return unwrap<DeleteResult>(api.DELETE('/v1/gcp/account', { body: { account_id: accountId } }));
  return unwrap<DeleteResult>(api.DELETE('/v1/azure/account', { body: { account_id: accountId } }));
}

export function useRemoveConnection() {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: ({ provider, accountId }: { provider: Provider; accountId: string }) => removeConnection(provider, accountId),
    onSuccess: invalidate,
  });
}
