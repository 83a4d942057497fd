import type { AuthResponse, User } from './types';

/**
 * The signed-in session. The access token lives in memory only; the refresh token is an
 * HttpOnly cookie that page scripts never see (`costscope_refresh`, sent to /v1/auth only), so
 * a reload restores the session by asking /v1/auth/refresh (see auth-refresh.ts).
 */
export interface Session {
  accessToken: string;
  /** Epoch milliseconds at which the access token expires. */
  expiresAt: number;
  user: User;
}

/**
 * localStorage flag (no secret in it) saying that this browser holds a session cookie: a
 * reload only asks the server to restore a session when it is set, and other tabs follow its
 * changes (sign-in elsewhere restores, sign-out elsewhere signs out).
 */
export const SESSION_HINT_KEY = 'costscope.signed-in';
/** Where earlier versions kept the whole session, tokens included: removed on start. */
const LEGACY_SESSION_KEY = 'costscope.session';

type Listener = (session: Session | null) => void;

const listeners = new Set<Listener>();
let current: Session | null = null;

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

try {
  storage()?.removeItem(LEGACY_SESSION_KEY);
} catch {
  // Storage may be unavailable (private mode).
}

/** Whether this browser probably holds a session cookie (set at sign-in, cleared at sign-out). */
export function hasSessionHint(): boolean {
  try {
    return storage()?.getItem(SESSION_HINT_KEY) === '1';
  } catch {
    return false;
  }
}

function setSessionHint(signedIn: boolean) {
  try {
    if (signedIn) storage()?.setItem(SESSION_HINT_KEY, '1');
    else storage()?.removeItem(SESSION_HINT_KEY);
  } catch {
    // Without storage, reloads simply ask the server.
  }
}

function emit() {
  for (const listener of listeners) listener(current);
}

export function getSession(): Session | null {
  return current;
}

export function sessionFromAuth(auth: AuthResponse, now = Date.now()): Session {
  return {
    accessToken: auth.access_token,
    expiresAt: now + auth.expires_in * 1000,
    user: auth.user,
  };
}

export function setSession(session: Session): void {
  current = session;
  setSessionHint(true);
  emit();
}

export function signInWith(auth: AuthResponse): Session {
  const session = sessionFromAuth(auth);
  setSession(session);
  return session;
}

export function updateSessionUser(user: User): void {
  if (current && current.user.id === user.id) setSession({ ...current, user });
}

/** Forgets the session here; `everywhere` (the default) also tells the other tabs. */
export function clearSession({ everywhere = true }: { everywhere?: boolean } = {}): void {
  const had = current !== null;
  current = null;
  if (everywhere) setSessionHint(false);
  if (had) emit();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
