// Journey (issue 15, docs/NOTIFICATIONS.md "Microsoft Teams through Microsoft Graph"): the demo
// owner opens Cloud Accounts, presses "Connect MS Teams" and "Connect with Microsoft Teams"; the
// browser follows the real redirect to the identity platform's authorize endpoint (the Teams
// stand-in of e2e/cloud-peers.ts, which approves at once) and back to /teams-oauth-callback, whose
// page has the server redeem the code; the owner picks the team and channel the stand-in's user
// is a member of, sees "Microsoft Teams Connected", the integration on Cloud Accounts and the
// channel on the Notifications page typed "Microsoft Teams"; "Send test" posts the test message
// to that channel through Microsoft Graph (read back from the stand-in).
import type { APIRequestContext } from '@playwright/test';
import { TEAMS_TEAM } from './cloud-peers';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const CHANNEL = TEAMS_TEAM.channels[0];
/** The notification channel the integration becomes (`Teams: {team} / {channel}`). */
const CHANNEL_NAME = `Teams: ${TEAMS_TEAM.name} / ${CHANNEL.name}`;

interface Channel {
  id: number;
  type: string;
  name: string;
  targetHint: string;
}

interface PostedMessage {
  team_id: string;
  channel_id: string;
  body: unknown;
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: global-setup.ts starts the Teams stand-in (e2e/cloud-peers.ts)`);
  return value;
}

/** What the stand-in's Graph received on channels so far. */
async function postedMessages(): Promise<PostedMessage[]> {
  const res = await fetch(`${env('COSTSCOPE_E2E_TEAMS_CONTROL_URL')}/messages`);
  expect(res.status).toBe(200);
  return (await res.json()) as PostedMessage[];
}

async function demoChannels(request: APIRequestContext, token: string): Promise<Channel[]> {
  const res = await request.get('/v1/channels', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Channel[];
}

// The demo session's access token, once signed in. Every spec signs in from 127.0.0.1, which has a
// budget of sign-in attempts (30 in 15 minutes): this journey signs in once, through the form.
let token: string | null = null;

/** Removes this journey's channel (and with it the integration), so no later spec meets it. */
test.afterEach(async ({ request }) => {
  if (token === null) return;
  for (const channel of (await demoChannels(request, token)).filter((c) => c.name === CHANNEL_NAME)) {
    const res = await request.delete(`/v1/channels/${channel.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status(), await res.text()).toBe(204);
  }
  token = null;
});

test('the demo owner connects a Microsoft Teams channel through the Microsoft sign-in and sends it a test message', async ({
  page,
  request,
}) => {
  const authority = env('COSTSCOPE_E2E_TEAMS_AUTHORITY');
  await signInThroughForm(page, DEMO.email, DEMO.password);
  token = await accessTokenOf(page);

  // Cloud Accounts, from the user menu's Integrations.
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await page.getByRole('menuitem', { name: 'Integrations' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cloud Accounts' })).toBeVisible();
  await page.getByRole('region', { name: 'MS Teams' }).getByRole('button', { name: 'Connect MS Teams' }).click();
  await expect(page).toHaveURL(/\/settings\/ms-teams-connect$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Connect Microsoft Teams' })).toBeVisible();

  // Connect: the browser leaves for the authorize endpoint and comes back to the return page.
  const toAuthorize = page.waitForRequest((req) => req.url().startsWith(`${authority}/oauth2/v2.0/authorize?`));
  const toCallback = page.waitForRequest((req) => new URL(req.url()).pathname === '/teams-oauth-callback');
  const redeemed = page.waitForResponse(
    (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/v1/api/teams/oauth/callback',
  );
  await page.getByRole('button', { name: 'Connect with Microsoft Teams' }).click();

  const authorize = new URL((await toAuthorize).url());
  expect(authorize.searchParams.get('response_type')).toBe('code');
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${new URL(page.url()).origin}/teams-oauth-callback`);
  const state = authorize.searchParams.get('state');
  expect(state).toBeTruthy();

  const callback = new URL((await toCallback).url());
  expect(callback.searchParams.get('state')).toBe(state);
  expect(callback.searchParams.get('code')).toBeTruthy();
  const redemption = await redeemed;
  expect(redemption.status(), await redemption.text()).toBe(200);

  // Back on the connect page: the notice, a clean URL, the picker.
  await expect(page.getByText('Successfully connected to Microsoft Teams!')).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/ms-teams-connect$/);
  await expect(page.getByText('Please select both a Team and a Channel before proceeding.')).toBeVisible();
  const continueButton = page.getByRole('button', { name: 'Continue' });
  await expect(continueButton).toBeDisabled();

  await page.getByRole('combobox', { name: 'Team' }).click();
  await page.getByRole('option', { name: TEAMS_TEAM.name }).click();
  await page.getByRole('combobox', { name: 'Channel' }).click();
  await expect(page.getByRole('option')).toHaveText(TEAMS_TEAM.channels.map((c) => c.name));
  await page.getByRole('option', { name: CHANNEL.name }).click();
  await expect(continueButton).toBeEnabled();
  await continueButton.click();

  const connected = page.getByRole('status').filter({ hasText: 'Microsoft Teams Connected' });
  await expect(connected).toBeVisible();
  await expect(connected).toContainText(`Team: ${TEAMS_TEAM.name}`);
  await expect(connected).toContainText(`Channel: ${CHANNEL.name}`);

  // After the 10 s countdown: Cloud Accounts lists the integration.
  await expect(page).toHaveURL(/\/settings\/integrations$/, { timeout: 20_000 });
  const integrations = page.getByRole('table', { name: 'MS Teams integrations' });
  const integration = integrations.getByRole('row').filter({ hasText: TEAMS_TEAM.id });
  await expect(integration).toContainText(TEAMS_TEAM.name);
  await expect(integration).toContainText(CHANNEL.name);
  await expect(integration).toContainText(CHANNEL.id);

  // Notifications: the channel, typed "Microsoft Teams".
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await page.getByRole('menuitem', { name: 'Notifications' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Notification channels' }).getByRole('row').filter({ hasText: CHANNEL_NAME });
  await expect(row.getByRole('cell').nth(1)).toHaveText('Microsoft Teams');
  await expect(row.getByRole('cell').nth(2)).toHaveText(`${TEAMS_TEAM.name} / ${CHANNEL.name}`);

  const channels = await demoChannels(request, token);
  expect(channels.filter((c) => c.name === CHANNEL_NAME).map((c) => c.type)).toEqual(['teams']);

  // Send test: delivered, and the stand-in's Graph received it on that channel.
  const before = (await postedMessages()).length;
  await row.getByRole('button', { name: `Send test to ${CHANNEL_NAME}` }).click();
  await expect(page.getByText(`Test message delivered to ${CHANNEL_NAME}`)).toBeVisible();
  const received = (await postedMessages()).slice(before);
  const tests = received.filter((m) => JSON.stringify(m.body).includes('Costscope test message'));
  expect(tests.map((m) => [m.team_id, m.channel_id])).toEqual([[TEAMS_TEAM.id, CHANNEL.id]]);
});
