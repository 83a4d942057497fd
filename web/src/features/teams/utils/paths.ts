export const TEAMS_CONNECT_PATH = '/settings/ms-teams-connect';
/** The identity platform's return page (the app registration's redirect URI ends with it). */
export const TEAMS_CALLBACK_PATH = '/teams-oauth-callback';
export const INTEGRATIONS_PATH = '/settings/integrations';

/** The connect page with the outcome of the sign-in. */
export function connectPathWithAuth(auth: AuthResult): string {
  return `${TEAMS_CONNECT_PATH}?auth=${auth}`;
}

/** What the return page tells the connect page (spec 2 §2). */
export const AUTH_RESULTS = ['success', 'cancelled', 'error', 'timeout', 'manual', 'nojs'] as const;
export type AuthResult = (typeof AUTH_RESULTS)[number];

export function parseAuthResult(value: string | null): AuthResult | null {
  return (AUTH_RESULTS as readonly string[]).includes(value ?? '') ? (value as AuthResult) : null;
}
