import { apiUrl } from './base-url';
import {
  clearSession,
  getSession,
  hasSessionHint,
  SESSION_HINT_KEY,
  signInWith,
  subscribeSession,
  type Session,
} from './session';
import type { AuthResponse } from './types';

/** Refresh this long before the access token expires. */
export const REFRESH_LEAD_MS = 60_000;
/** After a failed refresh that was not a rejection (network, 5xx, 429), try again after this delay. */
export const REFRESH_RETRY_MS = 30_000;
/** A token this close to expiry is refreshed before a request is sent with it. */
const NEARLY_EXPIRED_MS = 5_000;
/** The Web Locks name that keeps tabs from refreshing at the same time. */
const REFRESH_LOCK = 'costscope-session-refresh';

let inflight: Promise<Session | null> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Runs `work` while no other tab refreshes. The refresh token is single use and shared by every
 * tab (one cookie): two tabs presenting it at once would look like a stolen token being
 * replayed, and the server would end the session.
 */
async function oneTabAtATime<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks?.request) return work();
  return locks.request(REFRESH_LOCK, work) as Promise<T>;
}

async function exchangeRefreshCookie(): Promise<Session | null> {
  const before = getSession();
  try {
    const response = await globalThis.fetch(
      new Request(apiUrl('/v1/auth/refresh'), { method: 'POST', credentials: 'same-origin' }),
    );
    if (response.ok) return signInWith((await response.json()) as AuthResponse);
    if (response.status === 400 || response.status === 401) {
      clearSession();
      return null;
    }
    return before;
  } catch {
    return before;
  }
}

/**
 * Exchanges the refresh cookie for a new session (single flight per tab, one tab at a time).
 * A rejected refresh token signs the user out; a transient failure keeps the current session.
 */
export function refreshSession(): Promise<Session | null> {
  if (inflight) return inflight;
  inflight = oneTabAtATime(exchangeRefreshCookie).finally(() => {
    inflight = null;
  });
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

type RestoreState = 'idle' | 'restoring' | 'done';
let restoreState: RestoreState = 'idle';
const restoreListeners = new Set<() => void>();

function setRestoreState(state: RestoreState) {
  restoreState = state;
  for (const listener of restoreListeners) listener();
}

/** Whether the session of a reloaded page is still being restored from the refresh cookie. */
export function isRestoringSession(): boolean {
  return restoreState === 'restoring';
}

export function subscribeRestore(listener: () => void): () => void {
  restoreListeners.add(listener);
  return () => restoreListeners.delete(listener);
}

/** After a reload: asks the server for the session when this browser was signed in. */
export async function restoreSession(): Promise<Session | null> {
  if (getSession() || !hasSessionHint()) {
    setRestoreState('done');
    return getSession();
  }
  setRestoreState('restoring');
  try {
    return await refreshSession();
  } finally {
    setRestoreState('done');
  }
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
 * Keeps the session alive: restores it after a reload, refreshes the access token about a
 * minute before it expires, and follows sign-in/sign-out made in other tabs. Returns a function
 * that stops it.
 */
export function startSessionRefresh(): () => void {
  void restoreSession();
  schedule(getSession());
  const unsubscribe = subscribeSession((session) => schedule(session));
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_HINT_KEY && event.key !== null) return;
    if (!hasSessionHint()) clearSession({ everywhere: false });
    else if (!getSession()) void refreshSession();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    unsubscribe();
    globalThis.removeEventListener?.('storage', onStorage);
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
