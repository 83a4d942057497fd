/** Same-origin API: the binary serves both the SPA and the API (the Vite dev server proxies). */
export const API_BASE_URL: string = globalThis.location?.origin ?? 'http://localhost';

export function apiUrl(path: string): string {
  return `${API_BASE_URL}${path}`;
}
