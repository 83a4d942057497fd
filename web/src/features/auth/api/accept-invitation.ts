import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import { signInWith } from '@/api/session';
import type { AcceptInvitationRequest, AuthResponse } from '@/api/types';

export const acceptInvitation = ({ token, ...body }: AcceptInvitationRequest & { token: string }) =>
  unwrap<AuthResponse>(api.POST('/v1/auth/invitations/{token}/accept', { params: { path: { token } }, body }));

export function useAcceptInvitation() {
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: (auth) => signInWith(auth),
  });
}
