import { useMutation } from '@tanstack/react-query';
import { apiUrl } from '@/api/base-url';
import { clearSession } from '@/api/session';

/** Revokes the refresh cookie on the server (best effort), then forgets the session here and in other tabs. */
export async function signOut(): Promise<void> {
  try {
    // No body: the browser sends the HttpOnly refresh cookie, which the answer clears.
    await globalThis.fetch(new Request(apiUrl('/v1/auth/logout'), { method: 'POST', credentials: 'same-origin' }));
  } catch {
    // Signing out locally matters more than the server's answer.
  }
  clearSession();
}

/** Signing out clears the session; the app providers then drop the signed-in user's cached data. */
export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}
