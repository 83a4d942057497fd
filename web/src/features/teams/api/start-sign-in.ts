import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { TeamsOAuthStart } from '../types';

/**
 * GET /v1/api/teams/oauth/login: the server keeps a pending integration and answers the
 * identity platform's sign-in URL; Microsoft returns to `redirectUri` (the return page).
 */
export const startSignIn = (redirectUri: string) =>
  unwrap<TeamsOAuthStart>(api.GET('/v1/api/teams/oauth/login', { params: { query: { redirect_uri: redirectUri } } }));

export const useStartSignIn = () => useMutation({ mutationFn: startSignIn });
