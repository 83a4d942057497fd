// Journeys: the demo owner reads Basic Cost, the cost visualisation page (chart type, paging,
// expansion, CSV export) and Cost Saving; every figure checked equals the cost API's own answer.
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const DAY_MS = 86_400_000;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (amount: number) => {
  const text = usd.format(amount);
  return /^-\$0\.00$/.test(text) ? text.slice(1) : text;
};

/** 00:00 UTC of today, and the ISO bounds of a range of UTC days ending today (as the pages compute them). */
function todayUtc(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
function range(first: Date) {
  return { start_time: first.toISOString(), end_time: new Date(todayUtc().getTime() + DAY_MS - 1).toISOString() };
}
const thisMonth = () => range(new Date(Date.UTC(todayUtc().getUTCFullYear(), todayUtc().getUTCMonth(), 1)));
const last30Days = () => range(new Date(todayUtc().getTime() - 29 * DAY_MS));

async function post<T>(request: APIRequestContext, page: Page, path: string, data: unknown): Promise<T> {
  const res = await request.post(path, { data, headers: { Authorization: `Bearer ${await accessTokenOf(page)}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

interface Aggr {
  summary: { accrued_cost: number };
}
interface Spend {
  current_period: { cost_type: Record<string, number> };
}

test.beforeEach(async ({ page }) => {
  await signInThroughForm(page, DEMO.email, DEMO.password);
});

test('Basic Cost shows the month-to-date spend the cost API gives for this month', async ({ page, request }) => {
  await page.goto('/cost/basic');
  await expect(page.getByRole('heading', { level: 1, name: 'Basic Cost' })).toBeVisible();
  const answer = await post<Aggr>(request, page, '/v2/cost/aggr', { ...thisMonth(), filters: [], group_by: 'none' });
  expect(answer.summary.accrued_cost).not.toBe(0);
  await expect(page.getByRole('group', { name: 'Month-to-date spend' })).toContainText(money(answer.summary.accrued_cost));
  await expect(page.getByRole('group', { name: /^Forecast for [A-Z][a-z]+$/ })).toContainText('80 % range');
  await expect(page.getByRole('table', { name: 'Top services this month' }).getByRole('row')).not.toHaveCount(1);
});

test('the cost visualisation switches chart type, pages and expands its table and exports the API total', async ({ page, request }) => {
  await page.goto('/cost/analysis');
  await expect(page.getByRole('heading', { level: 1, name: 'Cost Analysis' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Period' }).click();
  await page.getByRole('option', { name: 'Last 30 Days' }).click();

  const answer = await post<Aggr>(request, page, '/v2/cost/aggr', { ...last30Days(), filters: [], group_by_dimensions: ['service'], group_by_hierarchy: false, interval: 'daily', limit: 10000 });
  await expect(page.getByRole('group', { name: 'Total cost' })).toContainText(money(answer.summary.accrued_cost));

  const chart = page.getByTestId('cost-chart');
  await expect(chart).toHaveAttribute('data-chart-type', 'line');
  await page.getByRole('group', { name: 'Chart type' }).getByRole('button', { name: 'Bar' }).click();
  await expect(chart).toHaveAttribute('data-chart-type', 'bar');
  await expect(chart.locator('canvas').first()).toBeVisible();

  const table = page.getByRole('table', { name: 'Cost by date' });
  const dateRows = table.locator(':scope > tbody > tr');
  await expect(dateRows).toHaveCount(10);
  await page.getByRole('combobox', { name: /Rows per page/ }).click();
  await page.getByRole('option', { name: '5', exact: true }).click();
  await expect(dateRows).toHaveCount(5);
  await expect(page.getByText('1–5 of 30')).toBeVisible();

  const expand = table.getByRole('button', { name: /^Expand / }).first();
  const day = ((await expand.getAttribute('aria-label')) ?? '').replace(/^Expand /, '');
  await expand.click();
  const groups = page.getByRole('table', { name: `${day} by service` });
  await expect(groups).toBeVisible();
  await expect(groups.getByRole('row')).not.toHaveCount(1);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^cost-data-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync(await download.path(), 'utf8').trim().split('\n');
  expect(lines[0]).toBe('Date,Service,Amount');
  const fileTotal = lines.slice(1).reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(',') + 1)), 0);
  expect(Math.abs(fileTotal - answer.summary.accrued_cost)).toBeLessThan(0.005);
});

test('Cost Saving lists the credits the spend API reports', async ({ page, request }) => {
  // Cost Saving is a tab of the newCostDashboard layout: turn the flag on for this browser.
  await page.route('**/v1/auth/config', async (route) => {
    const response = await route.fetch();
    const config = (await response.json()) as { features: Record<string, boolean> };
    await route.fulfill({ response, json: { ...config, features: { ...config.features, newCostDashboard: true } } });
  });
  await page.goto('/cost/saving');
  await expect(page.getByRole('heading', { level: 1, name: 'Cost Analysis' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Cost Saving', selected: true })).toBeVisible();

  const answer = await post<Spend>(request, page, '/v2/cost/spend', { ...last30Days(), filters: [] });
  const credits = answer.current_period.cost_type.Credit;
  expect(credits).toBeLessThan(0);
  const section = page.getByRole('region', { name: 'Credits and refunds received' });
  await expect(section.getByRole('group', { name: 'Credits received' })).toContainText(money(-credits));
  await expect(section.getByRole('table', { name: 'Credit and refund rows' }).getByRole('row').filter({ hasText: 'Credit' }).first()).toBeVisible();
});
