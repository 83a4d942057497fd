import createClient from 'openapi-fetch';
import { authMiddleware } from '@/api/client';
import { API_BASE_URL } from '@/api/base-url';
import type { NotificationPaths } from '../types';

/**
 * The shared client's twin for the routes the generated schema does not list yet: same base
 * URL, same middleware (bearer token, refresh, 401 → sign out, failures as ApiError). When the
 * server's OpenAPI document carries the channel routes, the calls move to `@/api/client`'s `api`.
 */
export const notificationsApi = createClient<NotificationPaths>({
  baseUrl: API_BASE_URL,
  // Late-bound so that tests can replace globalThis.fetch.
  fetch: (request: Request) => globalThis.fetch(request),
});
notificationsApi.use(authMiddleware);
