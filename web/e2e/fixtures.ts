// Shared fixtures and helpers for the e2e specs. Every spec imports `test` and `expect` from here.
import { readFileSync } from 'node:fs';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

/** The HttpOnly cookie holding the refresh token (crates/server/src/auth/cookie.rs). */
export const REFRESH_COOKIE = 'costscope_refresh';

export function serverUrl(): string {
  const url = process.env.COSTSCOPE_E2E_BASE_URL;
  if (!url) throw new Error('COSTSCOPE_E2E_BASE_URL is not set: run through playwright.config.ts');
  return url;
}

export function serverLog(): string {
  const file = process.env.COSTSCOPE_E2E_SERVER_LOG;
  return file ? readFileSync(file, 'utf8') : '';
}

export const test = base.extend<{ serverLogOnFailure: void }>({
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(serverUrl());
  },
  serverLogOnFailure: [
    async ({}, use, testInfo) => {
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        const tail = serverLog().split('\n').slice(-80).join('\n');
        await testInfo.attach('server-log-tail', { body: tail, contentType: 'text/plain' });
        console.log(`--- last lines of the costscope server log ---\n${tail}`);
      }
    },
    { auto: true },
  ],
});
export { expect };

let counter = 0;
/** A fresh e-mail address, unique across runs against the same data dir. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  const stamp = `${process.pid.toString(36)}${Date.now().toString(36)}${counter}`;
  return `${prefix}-${stamp}@example.com`;
}

export const PASSWORD = 'Correct-Horse-42';

/** The refresh token is not in the body: it is the HttpOnly `costscope_refresh` cookie. */
export interface AuthResponse {
  access_token: string;
  user: { id: number; email: string; role: string; status: string; name: string };
}

/** Signs up through the API (for journeys that need an owner but do not test sign-up itself). */
export async function apiSignUp(
  request: APIRequestContext,
  body: { name: string; email: string; password: string },
): Promise<AuthResponse> {
  const res = await request.post('/v1/auth/signup', { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as AuthResponse;
}

export async function apiLogin(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<AuthResponse> {
  const res = await request.post('/v1/auth/login', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as AuthResponse;
}

/**
 * An access token of the user signed in on `page`. The SPA keeps its own in memory only, so this
 * asks /v1/auth/refresh from the page, with the page's refresh cookie, as the SPA does (the
 * cookie is rotated and the SPA's next refresh uses the new one).
 */
export async function accessTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(async () => {
    const refresh = async () => {
      const response = await fetch('/v1/auth/refresh', { method: 'POST', credentials: 'same-origin' });
      if (!response.ok) return null;
      return ((await response.json()) as { access_token?: string }).access_token ?? null;
    };
    // The SPA's lock (web/src/api/auth-refresh.ts): never present the cookie at the same time.
    return navigator.locks ? navigator.locks.request('costscope-session-refresh', refresh) : refresh();
  });
  expect(token, 'the page holds a session cookie').toBeTruthy();
  return token as string;
}

/** Opens the app signed out and signs in through the sign-in form, as a person does. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Sign in' });
  await expect(form).toBeVisible();
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Open user menu' })).toBeVisible();
}

/** Opens the user menu in the header and picks one of its items. */
export async function chooseFromUserMenu(
  page: Page,
  item: 'Integrations' | 'User Management' | 'Billing Data' | 'Sign Out',
) {
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}
