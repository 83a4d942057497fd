import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { AzureExport, ConnectAzureRequest } from '../types';
import { cloudKeys } from './keys';

export const connectAzure = (body: ConnectAzureRequest) => unwrap<AzureExport>(api.POST('/v1/azure/account', { body }));

export function useConnectAzure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectAzure,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts }),
  });
}
