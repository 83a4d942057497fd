import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import { notificationKeys } from './keys';

/** 204; the channel's pending deliveries are dropped, the history keeps its name. */
export async function deleteChannel(id: number): Promise<void> {
  await api.DELETE('/v1/channels/{id}', { params: { path: { id } } });
}

export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
