import type { AuthResponse, User } from './types';

/** The signed-in session, kept in localStorage so that a reload stays signed in. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds at which the access token expires. */
  expiresAt: number;
  user: User;
}

export const SESSION_STORAGE_KEY = 'costscope.session';

type Listener = (session: Session | null) => void;

const listeners = new Set<Listener>();
let current: Session | null = readStored();

function readStored(): Session | null {
  try {
    const raw = globalThis.localStorage?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    if (
      typeof parsed.accessToken === 'string' &&
      typeof parsed.refreshToken === 'string' &&
      typeof parsed.expiresAt === 'number' &&
      parsed.user
    ) {
      return parsed as Session;
    }
  } catch {
    // A corrupt entry is treated as signed out.
  }
  return null;
}

function emit() {
  for (const listener of listeners) listener(current);
}

export function getSession(): Session | null {
  return current;
}

/** Re-reads localStorage (another tab may have refreshed or signed out). */
export function reloadSessionFromStorage(): Session | null {
  const stored = readStored();
  if (stored?.accessToken !== current?.accessToken) {
    current = stored;
    emit();
  }
  return current;
}

export function sessionFromAuth(auth: AuthResponse, now = Date.now()): Session {
  return {
    accessToken: auth.access_token,
    refreshToken: auth.refresh_token,
    expiresAt: now + auth.expires_in * 1000,
    user: auth.user,
  };
}

export function setSession(session: Session): void {
  current = session;
  try {
    globalThis.localStorage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  } catch {
    // Storage may be unavailable (private mode); the session still lives in memory.
  }
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

export function clearSession(): void {
  const had = current !== null;
  current = null;
  try {
    globalThis.localStorage?.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // ignore
  }
  if (had) emit();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
