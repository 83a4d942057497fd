// Journey (issue 15, docs/NOTIFICATIONS.md "Digests"): the demo user opens Digest from the user
// menu, opts in to the weekly digest, sends it to one of the tenant's channels rather than by
// e-mail (the e2e server has no SMTP), saves, reloads and finds the choice kept; GET /v1/me/digest
// answers the same. Afterwards the digest is put back to off and the channel removed (its pending
// deliveries with it), so no later spec meets them.
import type { APIRequestContext } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const CHANNEL_NAME = 'E2E digest webhook';

interface Digest {
  frequency: 'off' | 'daily' | 'weekly';
  email: boolean;
  channelId: number | null;
}

interface Channel {
  id: number;
  name: string;
}

function apiOf(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async get<T>(path: string): Promise<T> {
      const res = await request.get(path, { headers });
      expect(res.status(), `GET ${path}: ${await res.text()}`).toBe(200);
      return (await res.json()) as T;
    },
    async send(method: 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) {
      return request.fetch(path, { method, headers, data });
    },
  };
}

// The demo session's access token, once signed in. Every spec signs in from 127.0.0.1, which has a
// budget of sign-in attempts (30 in 15 minutes): this journey signs in once, through the form.
let token: string | null = null;

/** The demo user's digest off, without a channel, and this journey's channel gone. */
test.afterEach(async ({ request }) => {
  if (token === null) return;
  const api = apiOf(request, token);
  const reset = await api.send('PUT', '/v1/me/digest', { frequency: 'off', email: false, channelId: null });
  expect(reset.status(), await reset.text()).toBe(200);
  for (const channel of (await api.get<Channel[]>('/v1/channels')).filter((c) => c.name === CHANNEL_NAME)) {
    const res = await api.send('DELETE', `/v1/channels/${channel.id}`);
    expect(res.status(), await res.text()).toBe(204);
  }
  token = null;
});

test('the demo user opts in to a weekly digest sent to a channel, and the choice is kept', async ({ page, request }) => {
  await signInThroughForm(page, DEMO.email, DEMO.password);
  token = await accessTokenOf(page);
  const api = apiOf(request, token);
  // A channel of the tenant to send the digest to. The digest job records what is due when the
  // server starts and then hourly, so nothing is sent to it while the journey runs; the address
  // need not answer.
  const created = await api.send('POST', '/v1/channels', {
    type: 'webhook',
    name: CHANNEL_NAME,
    target: 'https://digest-receiver.example.com/costscope',
  });
  expect(created.status(), await created.text()).toBe(201);
  const channel = (await created.json()) as Channel;

  await page.getByRole('button', { name: 'Open user menu' }).click();
  await page.getByRole('menuitem', { name: 'Digest', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/digest$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Digest' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Digest settings' });
  const frequency = form.getByRole('combobox', { name: 'Frequency' });
  const emailIt = form.getByRole('checkbox', { name: 'E-mail it to me' });
  const channelSelect = form.getByRole('combobox', { name: 'Channel' });
  await expect(frequency).toHaveText('Off');
  await expect(form.getByText(`To ${DEMO.email}`)).toBeVisible();

  // Weekly, not by e-mail, to the channel.
  await frequency.click();
  await expect(page.getByRole('option')).toHaveText(['Off', 'Daily', 'Weekly (Mondays)']);
  await page.getByRole('option', { name: 'Weekly (Mondays)' }).click();
  await emailIt.uncheck();
  await channelSelect.click();
  await expect(page.getByRole('option', { name: 'None' })).toBeVisible();
  await page.getByRole('option', { name: CHANNEL_NAME }).click();
  await expect(channelSelect).toHaveText(CHANNEL_NAME);

  const saving = page.waitForResponse((res) => res.request().method() === 'PUT' && new URL(res.url()).pathname === '/v1/me/digest');
  await form.getByRole('button', { name: 'Save digest' }).click();
  const saved = await saving;
  expect(saved.status(), await saved.text()).toBe(200);
  await expect(form.getByRole('status')).toHaveText('Digest settings saved');

  // Kept across a reload.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Digest' })).toBeVisible();
  await expect(frequency).toHaveText('Weekly (Mondays)');
  await expect(emailIt).not.toBeChecked();
  await expect(channelSelect).toHaveText(CHANNEL_NAME);

  // And the API agrees.
  expect(await api.get<Digest>('/v1/me/digest')).toEqual({ frequency: 'weekly', email: false, channelId: channel.id });
});
