import { makeAuth, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { signInAs } from '@/test/render';
import { ApiError } from './api-error';
import { api } from './client';
import { getSession, SESSION_HINT_KEY } from './session';

describe('API client middleware', () => {
  it('sends the bearer token of the session', async () => {
    signInAs(makeUser());
    const { calls } = mockApi({ 'GET /v1/users': { body: [] } });
    await api.GET('/v1/users');
    expect(calls[0].headers.get('Authorization')).toBe('Bearer access-1');
  });

  it('signs the user out on a 401 from any call', async () => {
    signInAs(makeUser());
    mockApi({ 'GET /v1/customer': { status: 401, body: { message: 'Authentication required' } } });
    await expect(api.GET('/v1/customer')).rejects.toMatchObject({ status: 401, message: 'Authentication required' });
    expect(getSession()).toBeNull();
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
  });

  it('keeps the session on the sign-in call\'s 401 and passes its message on', async () => {
    signInAs(makeUser());
    mockApi({ 'POST /v1/auth/login': { status: 401, body: { message: 'Incorrect email or password' } } });
    const failure = api.POST('/v1/auth/login', { body: { email: 'a@b.co', password: 'wrong-password' } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(api.POST('/v1/auth/login', { body: { email: 'a@b.co', password: 'x' } })).rejects.toThrow(
      'Incorrect email or password',
    );
    expect(getSession()).not.toBeNull();
  });

  it('turns failures into one ApiError with the server message and details', async () => {
    signInAs(makeUser());
    mockApi({
      'POST /v1/users/invite': {
        status: 422,
        body: { message: 'Enter a valid email address', details: { email: ['Enter a valid email address'] } },
      },
    });
    const error = await api.POST('/v1/users/invite', { body: { email: 'x', role: 'User' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'Enter a valid email address', details: { email: ['Enter a valid email address'] } });
    expect(getSession()).not.toBeNull();
  });

  it('reports network failures as an ApiError', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('fetch failed'))));
    await expect(api.GET('/v1/auth/config')).rejects.toMatchObject({
      status: 0,
      message: 'Network error - please check your connection',
    });
  });

  it('sends no token to the public calls', async () => {
    signInAs(makeUser());
    const { calls } = mockApi({ 'POST /v1/auth/signup': { status: 201, body: makeAuth() } });
    await api.POST('/v1/auth/signup', { body: { name: 'Ann Lee', email: 'ann@example.com', password: 'password1' } });
    expect(calls[0].headers.get('Authorization')).toBeNull();
  });
});
