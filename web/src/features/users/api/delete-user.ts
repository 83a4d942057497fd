import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { MessageResponse } from '@/api/types';
import { userKeys } from './keys';

export const deleteUser = (id: number) =>
  unwrap<MessageResponse>(api.DELETE('/v1/users/{id}', { params: { path: { id } } }));

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
