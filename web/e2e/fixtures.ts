// Shared fixtures and helpers for the e2e specs. Every spec imports `test` and `expect` from here.
import { readFileSync } from 'node:fs';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

/** The localStorage key under which the SPA keeps its session (web/src/api/session.ts). */
export const SESSION_STORAGE_KEY = 'costscope.session';

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

export interface AuthResponse {
  access_token: string;
  refresh_token: string;
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

/** The access token the SPA holds for the signed-in user. */
export async function accessTokenOf(page: Page): Promise<string> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), SESSION_STORAGE_KEY);
  expect(raw, 'the SPA keeps a session in localStorage').toBeTruthy();
  const session = JSON.parse(raw as string) as { accessToken?: string };
  expect(typeof session.accessToken).toBe('string');
  return session.accessToken as string;
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
