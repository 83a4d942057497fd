import { useMutation } from '@tanstack/react-query';
import { api } from '@/api/client';
import { clearSession, getSession } from '@/api/session';

/** Revokes the refresh token on the server (best effort), then forgets the session. */
export async function signOut(): Promise<void> {
  const session = getSession();
  if (session) {
    try {
      await api.POST('/v1/auth/logout', { body: { refresh_token: session.refreshToken } });
    } catch {
      // Signing out locally matters more than the server's answer.
    }
  }
  clearSession();
}

/** Signing out clears the session; the app providers then drop the signed-in user's cached data. */
export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}
