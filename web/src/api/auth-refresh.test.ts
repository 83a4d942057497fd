import { makeAuth, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { signInAs } from '@/test/render';
import { ensureFreshSession, refreshDelay, startSessionRefresh } from './auth-refresh';
import { getSession } from './session';

describe('silent token refresh', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('refreshes about 60 s before the access token expires', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T12:00:00Z') });
    const user = makeUser();
    signInAs(user, 900);
    const { callsTo } = mockApi({
      'POST /v1/auth/refresh': { body: makeAuth(user, { access_token: 'access-2', refresh_token: 'refresh-2' }) },
    });
    stop = startSessionRefresh();

    await vi.advanceTimersByTimeAsync(839_000);
    expect(callsTo('POST', '/v1/auth/refresh')).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(callsTo('POST', '/v1/auth/refresh')).toHaveLength(1);
    expect(callsTo('POST', '/v1/auth/refresh')[0].body).toEqual({ refresh_token: 'refresh-1' });
    expect(getSession()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });

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
});
