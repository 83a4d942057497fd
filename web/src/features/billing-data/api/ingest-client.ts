// openapi-fetch client for /v1/ingest with the app's auth middleware (bearer token, ApiError,
// 401 → sign out). The paths are typed by hand from docs/API-COST.md until the generated schema
// has them.
import createClient from 'openapi-fetch';
import { authMiddleware } from '@/api/client';
import { API_BASE_URL } from '@/api/base-url';
import type { IngestJob } from '../types';

type Json<T> = { headers: Record<string, unknown>; content: { 'application/json': T } };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };

interface IngestPaths {
  '/v1/ingest': {
    parameters: NoParams;
    get: { parameters: NoParams; requestBody?: never; responses: { 200: Json<IngestJob[]> } };
  };
  '/v1/ingest/{id}': {
    parameters: NoParams;
    get: {
      parameters: { query?: never; header?: never; path: { id: IngestJob['id'] }; cookie?: never };
      requestBody?: never;
      responses: { 200: Json<IngestJob> };
    };
  };
}

export const ingestApi = createClient<IngestPaths>({
  baseUrl: API_BASE_URL,
  fetch: (request: Request) => globalThis.fetch(request),
});
ingestApi.use(authMiddleware);
