import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type Session } from './session';

const subscribe = (onChange: () => void) => subscribeSession(() => onChange());

/** The signed-in session, re-rendering on sign-in, refresh and sign-out. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}
