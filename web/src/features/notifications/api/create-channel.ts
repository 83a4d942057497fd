import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { CreateChannelRequest, CreatedChannel } from '../types';
import { notificationKeys } from './keys';

export const createChannel = (body: CreateChannelRequest) =>
  unwrap<CreatedChannel>(api.POST('/v1/channels', { body }));

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.channels() }),
  });
}
