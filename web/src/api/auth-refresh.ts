import { apiUrl } from './base-url';
import {
  clearSession,
  getSession,
  reloadSessionFromStorage,
  SESSION_STORAGE_KEY,
  signInWith,
  subscribeSession,
  type Session,
} from './session';
import type { AuthResponse } from './types';

/** Refresh this long before the access token expires. */
export const REFRESH_LEAD_MS = 60_000;
/** After a failed refresh that was not a rejection (network, 5xx), try again after this delay. */
export const REFRESH_RETRY_MS = 30_000;
/** A token this close to expiry is refreshed before a request is sent with it. */
const NEARLY_EXPIRED_MS = 5_000;

let inflight: Promise<Session | null> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Exchanges the refresh token for a new session (single flight). A rejected refresh token signs
 * the user out, unless another tab has rotated it meanwhile, in which case that session is used.
 */
export function refreshSession(): Promise<Session | null> {
  if (inflight) return inflight;
  const session = getSession();
  if (!session) return Promise.resolve(null);
  inflight = (async () => {
    try {
      const response = await globalThis.fetch(
        new Request(apiUrl('/v1/auth/refresh'), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refresh_token: session.refreshToken }),
        }),
      );
      if (response.ok) {
        return signInWith((await response.json()) as AuthResponse);
      }
      if (response.status === 400 || response.status === 401) {
        const stored = reloadSessionFromStorage();
        if (stored && stored.refreshToken !== session.refreshToken) return stored;
        clearSession();
        return null;
      }
      return session;
    } catch {
      return session;
    } finally {
      inflight = null;
    }
  })();
  return inflight;
}

/** The current session, refreshed first when its access token is (nearly) expired. */
export async function ensureFreshSession(now: number = Date.now()): Promise<Session | null> {
  const session = getSession();
  if (!session) return null;
  if (session.expiresAt - now > NEARLY_EXPIRED_MS) return session;
  return refreshSession();
}

/** Milliseconds from `now` until the silent refresh of `session` should run. */
export function refreshDelay(session: Session, now: number = Date.now()): number {
  return Math.max(0, session.expiresAt - REFRESH_LEAD_MS - now);
}

function schedule(session: Session | null, delay?: number) {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (!session) return;
  timer = setTimeout(async () => {
    timer = undefined;
    const before = getSession();
    const after = await refreshSession();
    // A transient failure leaves the session unchanged: try again a little later.
    if (after && after === before) schedule(after, REFRESH_RETRY_MS);
  }, delay ?? refreshDelay(session));
}

/**
 * Keeps the session alive: refreshes the access token about a minute before it expires, and
 * follows sign-in/sign-out made in other tabs. Returns a function that stops it.
 */
export function startSessionRefresh(): () => void {
  schedule(getSession());
  const unsubscribe = subscribeSession((session) => schedule(session));
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) reloadSessionFromStorage();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    unsubscribe();
    globalThis.removeEventListener?.('storage', onStorage);
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
