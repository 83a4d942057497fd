import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { InvitationInfo } from '@/api/types';
import { authKeys } from './keys';

export const getInvitation = (token: string) =>
  unwrap<InvitationInfo>(api.GET('/v1/auth/invitations/{token}', { params: { path: { token } } }));

export const invitationQuery = (token: string) =>
  queryOptions({ queryKey: authKeys.invitation(token), queryFn: () => getInvitation(token), retry: false });

export const useInvitation = (token: string) => useQuery(invitationQuery(token));
