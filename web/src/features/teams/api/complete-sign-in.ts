import { api, unwrap } from '@/api/client';
import type { TeamsSignedIn, TeamsSignInReturn } from '../types';

/**
 * POST /v1/api/teams/oauth/callback: the server redeems the code the identity platform sent
 * back to the return page (with the PKCE verifier it kept under `state`).
 */
export const completeSignIn = (body: TeamsSignInReturn) =>
  unwrap<TeamsSignedIn>(api.POST('/v1/api/teams/oauth/callback', { body }));
