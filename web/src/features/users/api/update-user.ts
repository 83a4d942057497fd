import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import { sharedKeys } from '@/api/queries';
import { updateSessionUser } from '@/api/session';
import type { UpdateUserRequest, User } from '@/api/types';
import { userKeys } from './keys';

export const updateUser = ({ id, ...body }: UpdateUserRequest & { id: number }) =>
  unwrap<User>(api.PUT('/v1/users/{id}/role', { params: { path: { id } }, body }));

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      updateSessionUser(user);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
        queryClient.invalidateQueries({ queryKey: sharedKeys.me }),
        queryClient.invalidateQueries({ queryKey: sharedKeys.customer }),
      ]);
    },
  });
}
