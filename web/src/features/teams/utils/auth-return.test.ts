import { callbackVerdict, startFromAuthResult } from './auth-return';
import { TEAMS_MESSAGES } from './messages';
import { AUTH_RESULTS, parseAuthResult } from './paths';

describe('the return from the Microsoft sign-in', () => {
  it('knows the six auth values and nothing else', () => {
    for (const value of AUTH_RESULTS) expect(parseAuthResult(value)).toBe(value);
    for (const value of [null, '', 'SUCCESS', 'ok']) expect(parseAuthResult(value)).toBeNull();
  });

  it('starts the connect page from each auth value', () => {
    expect(startFromAuthResult(null, 41)).toEqual({ step: { kind: 'connect' }, toast: null });
    expect(startFromAuthResult('success', 41)).toEqual({
      step: { kind: 'pick', channelId: 41 },
      toast: { severity: 'success', message: TEAMS_MESSAGES.connected },
    });
    for (const auth of ['manual', 'nojs'] as const) {
      expect(startFromAuthResult(auth, 41)).toEqual({ step: { kind: 'pick', channelId: 41 }, toast: null });
    }
    for (const auth of ['success', 'manual', 'nojs'] as const) {
      expect(startFromAuthResult(auth, null)).toEqual({
        step: { kind: 'connect' },
        toast: { severity: 'error', message: TEAMS_MESSAGES.noChannelId },
      });
    }
    for (const auth of ['cancelled', 'error', 'timeout'] as const) {
      expect(startFromAuthResult(auth, 41)).toEqual({
        step: { kind: 'connect' },
        toast: { severity: 'error', message: TEAMS_MESSAGES.connectFailed },
      });
    }
  });

  it("judges the identity platform's answer: access_denied is cancelled, any other error or no code is an error", () => {
    expect(callbackVerdict('code-1', null)).toBe('exchange');
    expect(callbackVerdict(null, 'access_denied')).toBe('cancelled');
    expect(callbackVerdict('code-1', 'access_denied')).toBe('cancelled');
    expect(callbackVerdict('code-1', 'server_error')).toBe('error');
    expect(callbackVerdict(null, null)).toBe('error');
    expect(callbackVerdict('', null)).toBe('error');
  });

  it('words the completion failure with the message, or "Unknown error"', () => {
    expect(TEAMS_MESSAGES.completeFailed('Gone')).toBe('Failed to complete the integration: Gone. Please try again.');
    expect(TEAMS_MESSAGES.completeFailed(undefined)).toBe('Failed to complete the integration: Unknown error. Please try again.');
  });
});
