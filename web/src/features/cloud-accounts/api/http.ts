import { api } from '@/api/client';

// replace with schema types after make web-types: these calls go through the app's one client
// (bearer token, fresh session, failures as ApiError) but their paths are not in schema.gen.ts
// yet, so they are typed by ../types.ts instead of the generated `paths`.
type LooseInit = {
  body?: unknown;
  params?: { query?: Record<string, string> };
  parseAs?: 'json' | 'blob';
};
type LooseCall = (path: string, init?: LooseInit) => Promise<{ data?: unknown; response: Response }>;
type LooseClient = { GET: LooseCall; POST: LooseCall; DELETE: LooseCall };

const loose = api as unknown as LooseClient;

export async function call<T>(method: keyof LooseClient, path: string, body?: unknown): Promise<T> {
  const { data } = await loose[method](path, body === undefined ? undefined : { body });
  return data as T;
}

/** A file answer (the onboarding template) with the name from Content-Disposition. */
export async function callBlob(path: string, query: Record<string, string>): Promise<{ blob: Blob; fileName: string | null }> {
  const { data, response } = await loose.GET(path, { params: { query }, parseAs: 'blob' });
  const fileName = response.headers.get('Content-Disposition')?.match(/filename="?([^";]+)"?/)?.[1] ?? null;
  return { blob: data as Blob, fileName };
}
