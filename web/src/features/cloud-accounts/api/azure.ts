import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AzureExport, ConnectAzureRequest } from '../types';
import { call } from './http';
import { cloudKeys } from './keys';

export const connectAzure = (body: ConnectAzureRequest) => call<AzureExport>('POST', '/v1/azure/account', body);

export function useConnectAzure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectAzure,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts }),
  });
}
