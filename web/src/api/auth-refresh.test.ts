import { makeAuth, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { signInAs } from '@/test/render';
import { ensureFreshSession, isRestoringSession, refreshDelay, refreshSession, restoreSession, startSessionRefresh } from './auth-refresh';
import { getSession, SESSION_HINT_KEY } from './session';

describe('silent token refresh', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('refreshes about 60 s before the access token expires', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T12:00:00Z') });
    const user = makeUser();
    signInAs(user, 900);
    const { callsTo } = mockApi({
      'POST /v1/auth/refresh': { body: makeAuth(user, { access_token: 'access-2' }) },
    });
    stop = startSessionRefresh();

    await vi.advanceTimersByTimeAsync(839_000);
    expect(callsTo('POST', '/v1/auth/refresh')).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(callsTo('POST', '/v1/auth/refresh')).toHaveLength(1);
    // The refresh token is the HttpOnly cookie the browser adds: no body, nothing from script.
    expect(callsTo('POST', '/v1/auth/refresh')[0].body).toBeUndefined();
    expect(getSession()).toMatchObject({ accessToken: 'access-2' });

    // The new session is scheduled again, 840 s later.
    await vi.advanceTimersByTimeAsync(839_000);
    expect(callsTo('POST', '/v1/auth/refresh')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(callsTo('POST', '/v1/auth/refresh')).toHaveLength(2);
  });

  it('signs out when the refresh token is rejected', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T12:00:00Z') });
    signInAs(makeUser(), 120);
    mockApi({ 'POST /v1/auth/refresh': { status: 401, body: { message: 'Your session has expired. Please sign in again.' } } });
    stop = startSessionRefresh();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(getSession()).toBeNull();
  });

  it('schedules at once when the token is already close to expiry', () => {
    signInAs(makeUser(), 30);
    const session = getSession();
    expect(session).not.toBeNull();
    expect(refreshDelay(session!)).toBe(0);
  });

  it('refreshes an expired token before it is used', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T12:00:00Z') });
    const user = makeUser();
    signInAs(user, 900);
    const { callsTo } = mockApi({ 'POST /v1/auth/refresh': { body: makeAuth(user, { access_token: 'access-3' }) } });
    const later = Date.now() + 901_000;
    const session = await ensureFreshSession(later);
    expect(callsTo('POST', '/v1/auth/refresh')).toHaveLength(1);
    expect(session?.accessToken).toBe('access-3');
  });

  it('keeps no token in localStorage, only a flag that a session exists', () => {
    signInAs(makeUser());
    expect(getSession()?.accessToken).toBe('access-1');
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBe('1');
    const stored = Object.keys(localStorage).map((key) => localStorage.getItem(key) ?? '');
    expect(stored.some((value) => value.includes('access-1') || value.includes('refresh'))).toBe(false);
  });

  it('restores the session of a reloaded page from the refresh cookie', async () => {
    localStorage.setItem(SESSION_HINT_KEY, '1');
    const user = makeUser();
    const { callsTo } = mockApi({ 'POST /v1/auth/refresh': { body: makeAuth(user, { access_token: 'restored' }) } });
    const restoring = restoreSession();
    expect(isRestoringSession()).toBe(true);
    expect((await restoring)?.accessToken).toBe('restored');
    expect(isRestoringSession()).toBe(false);
    expect(callsTo('POST', '/v1/auth/refresh')).toHaveLength(1);
  });

  it('does not ask the server after a reload when this browser was not signed in', async () => {
    const { calls } = mockApi({});
    expect(await restoreSession()).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('keeps the session on a transient failure and signs out everywhere on a rejection', async () => {
    signInAs(makeUser());
    mockApi({ 'POST /v1/auth/refresh': { status: 429, body: { message: 'Too many session refreshes' } } });
    expect((await refreshSession())?.accessToken).toBe('access-1');
    mockApi({ 'POST /v1/auth/refresh': { status: 401, body: { message: 'Your session has expired. Please sign in again.' } } });
    expect(await refreshSession()).toBeNull();
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
  });

  it('signs out when another tab signs out', () => {
    signInAs(makeUser());
    stop = startSessionRefresh();
    localStorage.removeItem(SESSION_HINT_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_HINT_KEY, newValue: null }));
    expect(getSession()).toBeNull();
  });
});
