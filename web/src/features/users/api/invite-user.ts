import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { InviteRequest, InviteResponse } from '@/api/types';
import { userKeys } from './keys';

export const inviteUser = (body: InviteRequest) => unwrap<InviteResponse>(api.POST('/v1/users/invite', { body }));

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
