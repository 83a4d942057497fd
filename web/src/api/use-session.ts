import { useSyncExternalStore } from 'react';
import { isRestoringSession, subscribeRestore } from './auth-refresh';
import { getSession, subscribeSession, type Session } from './session';

const subscribe = (onChange: () => void) => subscribeSession(() => onChange());

/** The signed-in session, re-rendering on sign-in, refresh and sign-out. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

/** True while a reloaded page restores its session from the refresh cookie. */
export function useSessionRestoring(): boolean {
  return useSyncExternalStore(subscribeRestore, isRestoringSession, isRestoringSession);
}
