import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { ConnectGcpRequest, GcpProject } from '../types';
import { cloudKeys } from './keys';

export const connectGcp = (body: ConnectGcpRequest) => unwrap<GcpProject>(api.POST('/v1/gcp/account', { body }));

export function useConnectGcp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectGcp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts }),
  });
}
