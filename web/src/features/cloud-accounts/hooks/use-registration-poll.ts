import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '@/api/api-error';
import { getRegistrationJob } from '../api/aws';
import type { RegistrationJob } from '../types';

/** Spec 2 §4 Account flows / §9: poll every 10 s, give up after 120 s. */
export const REGISTRATION_POLL_MS = 10_000;
export const REGISTRATION_GIVE_UP_MS = 120_000;

export type PollState =
  | { kind: 'idle' }
  | { kind: 'checking'; job: RegistrationJob | null }
  | { kind: 'succeeded'; job: RegistrationJob }
  | { kind: 'failed'; job: RegistrationJob }
  | { kind: 'error'; message: string }
  | { kind: 'gave-up' };

/**
 * POST /v1/account/registration/job for `accountId` while `active`: at once, then every 10 s
 * while the check is in progress (State 1), until State 6 or 7; after 120 s it gives up.
 * `restart()` asks for a new check ("Check again") and polls it the same way.
 */
export function useRegistrationPoll(accountId: string | null, active: boolean) {
  const [state, setState] = useState<PollState>({ kind: 'idle' });
  const [round, setRound] = useState(0);
  const restartNext = useRef(false);

  useEffect(() => {
    if (!active || !accountId) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    const restart = restartNext.current;
    restartNext.current = false;
    setState({ kind: 'checking', job: null });

    const poll = async (first: boolean) => {
      try {
        const job = await getRegistrationJob(first && restart ? { account_id: accountId, restart: true } : { account_id: accountId });
        if (cancelled) return;
        if (job.State === 6) return setState({ kind: 'succeeded', job });
        if (job.State === 7) return setState({ kind: 'failed', job });
        setState({ kind: 'checking', job });
      } catch (error) {
        if (cancelled) return;
        // A client error will not change by asking again; network and server errors may.
        if (isApiError(error) && error.status >= 400 && error.status < 500) {
          return setState({ kind: 'error', message: error.message });
        }
      }
      const elapsed = Date.now() - started;
      if (elapsed + REGISTRATION_POLL_MS > REGISTRATION_GIVE_UP_MS) {
        timer = setTimeout(() => !cancelled && setState({ kind: 'gave-up' }), Math.max(0, REGISTRATION_GIVE_UP_MS - elapsed));
        return;
      }
      timer = setTimeout(() => void poll(false), REGISTRATION_POLL_MS);
    };
    void poll(true);
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [accountId, active, round]);

  const restart = useCallback(() => {
    restartNext.current = true;
    setRound((r) => r + 1);
  }, []);

  return { state, restart };
}
