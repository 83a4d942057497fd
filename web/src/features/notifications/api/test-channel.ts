import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { TestChannelResult } from '../types';
import { notificationKeys } from './keys';

/** Sends a test message now (the server waits up to 10 s); a 502 says why it was not delivered. */
export const testChannel = (id: number) =>
  unwrap<TestChannelResult>(api.POST('/v1/channels/{id}/test', { params: { path: { id } } }));

export function useTestChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testChannel,
    // The channel's last delivery may have changed either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
