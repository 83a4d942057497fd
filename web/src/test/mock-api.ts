import { vi } from 'vitest';

export interface MockCall {
  method: string;
  path: string;
  /** The query string's parameters (e.g. `period` of GET /v1/forecast?period=month). */
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export type MockReply = { status?: number; body?: unknown } | ((call: MockCall) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>);

/**
 * Replaces globalThis.fetch with a router keyed by "METHOD /path" (path params as in the
 * request, e.g. "PUT /v1/users/2/role"). Unknown routes answer 404.
 */
export function mockApi(routes: Record<string, MockReply>) {
  const calls: MockCall[] = [];
  const fetchMock = vi.fn(async (input: Request | string, init?: RequestInit) => {
    const request = typeof input === 'string' ? new Request(new URL(input, 'http://localhost:3000'), init) : input;
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const call: MockCall = { method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body };
    calls.push(call);
    const route = routes[`${request.method} ${url.pathname}`];
    if (!route) return jsonResponse(404, { message: 'Not found' });
    const reply = typeof route === 'function' ? await route(call) : route;
    return jsonResponse(reply.status ?? 200, reply.body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls, callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}

export function jsonResponse(status: number, body: unknown): Response {
  if (status === 204 || body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
