// Journey: the demo user signs in; Mission Control's Anomalies card lists the anomalies the
// detection job found in the demo data (which carries injected ones), largest first as
// GET /v1/anomalies answers them; the user opens the largest, sees its chart drawn, dismisses
// it, and it has left the Open list (and is in the Dismissed one).
import type { APIRequestContext } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const DAY_MS = 86_400_000;

interface Anomaly {
  id: number;
  service: string | null;
  tagKey: string | null;
  tagValue: string | null;
  status: string;
}

const day = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The card's question: the open anomalies of the last 30 days (UTC). */
async function openAnomalies(request: APIRequestContext, token: string): Promise<Anomaly[]> {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const res = await request.get('/v1/anomalies', {
    headers: { Authorization: `Bearer ${token}` },
    params: { start: day(today - 29 * DAY_MS), end: day(today), status: 'open' },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { anomalies: Anomaly[] }).anomalies;
}

test('an anomaly of the demo data is on Mission Control, opens with its chart, and Dismiss takes it off the Open list', async ({ page, request }) => {
  await signInThroughForm(page, DEMO.email, DEMO.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Mission Control' })).toBeVisible();

  const card = page.getByRole('region', { name: 'Anomalies' });
  const largest = card.getByRole('list', { name: 'Largest open anomalies' });
  // The detection job runs after the demo load at start-up: wait for its findings.
  await expect(async () => {
    await page.reload();
    await expect(largest.getByRole('link').first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 45_000 });

  // The card shows what the API answers: the largest open anomalies of the last 30 days.
  const token = await accessTokenOf(page);
  const open = await openAnomalies(request, token);
  expect(open.length, 'the demo data carries injected anomalies').toBeGreaterThan(0);
  const links = largest.getByRole('link');
  await expect(links).toHaveCount(Math.min(3, open.length));
  const first = open[0];
  const subject = first.service ?? `${first.tagKey}=${first.tagValue}`;
  await expect(links.first()).toHaveAttribute('href', `/anomalies/${first.id}`);
  await expect(links.first()).toContainText(subject);

  // Open it: the facts, the chart drawn on its canvas, the contributors.
  await links.first().click();
  await expect(page).toHaveURL(new RegExp(`/anomalies/${first.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  const chart = page.getByRole('img', { name: `Daily cost of ${subject}` });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas')).toHaveCount(1);
  await expect(page.getByRole('table', { name: `Daily cost of ${subject} data` }).getByRole('cell', { name: 'Yes' }).first()).toBeAttached();
  await expect(page.getByRole('heading', { name: 'Usage types' })).toBeVisible();

  // Dismiss (the demo user is the tenant's owner).
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
  const stored = await request.get(`/v1/anomalies/${first.id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(((await stored.json()) as Anomaly).status).toBe('dismissed');

  // The Open list (the default) no longer has it; the Dismissed list has.
  await page.getByRole('link', { name: 'All anomalies' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Anomalies' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open', pressed: true })).toBeVisible();
  const list = page.getByRole('region', { name: 'Anomaly list' });
  await expect(list.getByRole('table', { name: 'Anomalies' }).or(list.getByRole('status'))).toBeVisible();
  await expect(list.locator(`a[href="/anomalies/${first.id}"]`)).toHaveCount(0);

  await page.getByRole('button', { name: 'Dismissed' }).click();
  await expect(list.locator(`a[href="/anomalies/${first.id}"]`)).toBeVisible();
});
