import createClient, { type Middleware } from 'openapi-fetch';
import { ApiError } from './api-error';
import { ensureFreshSession } from './auth-refresh';
import { API_BASE_URL } from './base-url';
import type { paths } from './schema.gen';
import { clearSession } from './session';

/** The sign-in call: its 401 is a wrong password, not an expired session. */
const SIGN_IN_PATH = '/v1/auth/login';

/** Calls that need no bearer token. */
const PUBLIC_PATHS = [
  '/v1/auth/signup',
  '/v1/auth/login',
  '/v1/auth/refresh',
  '/v1/auth/logout',
  '/v1/auth/config',
  '/v1/auth/invitations/',
];

export const NETWORK_ERROR_MESSAGE = 'Network error - please check your connection';

function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.some((p) => path === p || (p.endsWith('/') && path.startsWith(p)));
}

/** The message of a failure whose body carries none. */
export function defaultMessage(status: number): string {
  if (status === 401) return 'Authentication required';
  if (status === 403) return 'You do not have permission to do this';
  if (status === 404) return 'Not found';
  if (status === 413) return 'Upload too large';
  if (status >= 500) return 'Server error occurred';
  return 'An unexpected error occurred';
}

async function readErrorBody(
  response: Response,
): Promise<{ message?: string; details?: Record<string, unknown> } | undefined> {
  try {
    const body: unknown = await response.clone().json();
    if (body && typeof body === 'object') return body as { message?: string; details?: Record<string, unknown> };
  } catch {
    // Not JSON.
  }
  return undefined;
}

/** Adds the bearer token; turns every failure into an ApiError; a 401 signs the user out. */
export const authMiddleware: Middleware = {
  async onRequest({ request, schemaPath }) {
    if (isPublicPath(schemaPath)) return undefined;
    const session = await ensureFreshSession();
    if (session) request.headers.set('Authorization', `Bearer ${session.accessToken}`);
    return request;
  },
  async onResponse({ response, schemaPath }) {
    if (response.ok) return undefined;
    const body = await readErrorBody(response);
    const serverMessage = typeof body?.message === 'string' && body.message ? body.message : undefined;
    if (response.status === 401 && schemaPath !== SIGN_IN_PATH) clearSession();
    throw new ApiError(serverMessage ?? defaultMessage(response.status), response.status, body?.details ?? undefined, serverMessage);
  },
  onError({ error }) {
    if (error instanceof ApiError) return error;
    return new ApiError(NETWORK_ERROR_MESSAGE, 0);
  },
};

export const api = createClient<paths>({
  baseUrl: API_BASE_URL,
  // Late-bound so that tests (and polyfills) can replace globalThis.fetch.
  fetch: (request: Request) => globalThis.fetch(request),
});
api.use(authMiddleware);

/** The body of a successful call (the middleware has already thrown for failures). */
export async function unwrap<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data } = await call;
  return data as T;
}
