import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConnectGcpRequest, GcpProject } from '../types';
import { call } from './http';
import { cloudKeys } from './keys';

export const connectGcp = (body: ConnectGcpRequest) => call<GcpProject>('POST', '/v1/gcp/account', body);

export function useConnectGcp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectGcp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts }),
  });
}
