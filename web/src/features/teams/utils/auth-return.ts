import { pendingChannel } from './pending-channel';
import { TEAMS_MESSAGES } from './messages';
import type { AuthResult } from './paths';

export type ConnectStep =
  | { kind: 'connect' }
  | { kind: 'pick'; channelId: number }
  | { kind: 'complete'; teamName: string; channelName: string };

export interface ConnectStart {
  step: ConnectStep;
  toast: { severity: 'success' | 'error'; message: string } | null;
}

/**
 * Where the connect page starts, given `auth` of the return from Microsoft's sign-in and the
 * pending integration kept in sessionStorage (spec 2 §2, §4, §8).
 * - success: the sign-in went through; pick a team and channel.
 * - manual / nojs: the return page's fallback links; the picker shows what the server has.
 * - cancelled / error / timeout: back to Connect.
 */
export function startFromAuthResult(auth: AuthResult | null, channelId: number | null = pendingChannel()): ConnectStart {
  if (auth === null) return { step: { kind: 'connect' }, toast: null };
  if (auth === 'cancelled' || auth === 'error' || auth === 'timeout') {
    return { step: { kind: 'connect' }, toast: { severity: 'error', message: TEAMS_MESSAGES.connectFailed } };
  }
  if (channelId === null) return { step: { kind: 'connect' }, toast: { severity: 'error', message: TEAMS_MESSAGES.noChannelId } };
  return {
    step: { kind: 'pick', channelId },
    toast: auth === 'success' ? { severity: 'success', message: TEAMS_MESSAGES.connected } : null,
  };
}

/** The return page's verdict on what the identity platform sent back (before the code exchange). */
export function callbackVerdict(code: string | null, error: string | null): 'exchange' | 'cancelled' | 'error' {
  if (error === 'access_denied') return 'cancelled';
  if (error || !code) return 'error';
  return 'exchange';
}
