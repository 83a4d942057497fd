// Journey (issue 5): the demo user creates a monthly budget for one AWS account at an amount
// below the account's month-to-date spend. It shows as Exceeded and critical on the dashboard;
// its detail shows 'Exceeded Budget', the cost API's spend and both thresholds triggered; the
// alert history lists both; the Spending Trend (Daily, This Month) and the Resources table show
// the cost API's spend. Its amount is edited (a Configuration Change History row appears) and it
// is deleted by typing its name.
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Download, Response } from '@playwright/test';
import { accessTokenOf, apiLogin, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const BUDGET_NAME = 'E2E AWS account';

interface Budget {
  id: number;
  name: string;
  amount: number;
  currentSpent: number;
  periodStart: string;
}

interface AlertHistoryItem {
  thresholdType: string;
  thresholdValue: number;
  spentAmount: number;
  periodStart: string;
}

interface ResourcesAnswer {
  pagination: { totalCount: number };
  resourcesCost: number;
  totalCost: number;
}

interface AggrAnswer {
  data: Array<{ account?: string | null; amount: number }>;
  summary: { accrued_cost: number };
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** USD without decimals, as the budget screens show amounts (spec 2 §9). */
function usd(amount: number): string {
  const text = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(amount);
  return text === '-$0' ? '$0' : text;
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

/** The lines of a downloaded CSV file, without its byte order mark and the final line break. */
async function csvLines(download: Download): Promise<string[]> {
  const text = readFileSync(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFF'), 'budget CSV files start with a byte order mark').toBe(true);
  return text.slice(1).trimEnd().split('\n');
}

/** The last cell of a CSV line: a number is never quoted, so it follows the last comma. */
function lastNumber(line: string): number {
  return Number(line.slice(line.lastIndexOf(',') + 1));
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

type Api = ReturnType<typeof apiOf>;

/** The API with a session token. */
function apiOf(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async get<T>(path: string): Promise<T> {
      const res = await request.get(path, { headers });
      expect(res.status(), `GET ${path}: ${await res.text()}`).toBe(200);
      return (await res.json()) as T;
    },
    async status(method: 'GET' | 'DELETE', path: string): Promise<number> {
      const res = await request.fetch(path, { method, headers });
      return res.status();
    },
    async aggr(body: Record<string, unknown>): Promise<AggrAnswer> {
      const res = await request.post('/v2/cost/aggr', { headers, data: body });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()) as AggrAnswer;
    },
  };
}

/** Deletes the budgets of this journey's name, so that none is counted twice or left behind. */
async function deleteJourneyBudgets(api: Api) {
  for (const budget of (await api.get<Budget[]>('/v1/budgets')).filter((b) => b.name === BUDGET_NAME)) {
    expect(await api.status('DELETE', `/v1/budgets/${budget.id}`)).toBe(204);
  }
}

// A failed run must not leave its budget to the next specs (Mission Control expects no budgets).
test.afterEach(async ({ request }) => {
  const { access_token: token } = await apiLogin(request, DEMO.email, DEMO.password);
  await deleteJourneyBudgets(apiOf(request, token));
});

test('a budget below an AWS account’s month-to-date spend: exceeded, alerted, matching the cost API; edited and deleted', async ({ page }) => {
  test.setTimeout(180_000);
  await signInThroughForm(page, DEMO.email, DEMO.password);
  const api = apiOf(page.request, await accessTokenOf(page));
  await deleteJourneyBudgets(api);

  // The AWS account with the most spend this month, and that spend: billed cost, every charge
  // type, from the first of the month (UTC) to the end of today — what a monthly budget counts.
  const now = new Date();
  const monthStart = `${utcDay(now).slice(0, 8)}01`;
  const range = { start_time: `${monthStart}T00:00:00.000Z`, end_time: `${utcDay(now)}T23:59:59.999Z` };
  const awsAccounts = await api.aggr({
    ...range,
    filters: [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['aws'] }] }],
    group_by_dimensions: ['account'],
    order_by: 'amount',
    order_desc: true,
  });
  const accountId = awsAccounts.data[0]?.account;
  expect(accountId, 'the demo data has AWS spend this month').toBeTruthy();
  const account = accountId as string;
  const accountSpend = await api.aggr({
    ...range,
    filters: [{ operator: 'AND', accounts: [{ operator: 'equals', values: [account] }] }],
    group_by_dimensions: ['account'],
  });
  const monthToDate = accountSpend.summary.accrued_cost;
  expect(monthToDate, 'the account has spend this month').toBeGreaterThan(10);
  // 80 % of the spend: 125 % used, past both default alerts (75 % and 100 %).
  const amount = Math.floor(monthToDate * 0.8);
  const criticalBefore = (await api.get<{ criticalBudgets: number }>('/v1/budgets/summary')).criticalBudgets;

  // Create it with the wizard: step 1 an Account filter, step 2 name, amount, Monthly, default alerts.
  await page.goto('/budgets');
  await expect(page.getByRole('heading', { level: 1, name: 'Cost Budgets' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Budget' }).click();
  await expect(page).toHaveURL(/\/budgets\/create$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Create Budget' })).toBeVisible();
  const filter = page.getByRole('group', { name: 'Filter 1' });
  await filter.getByRole('combobox', { name: 'Filter Type' }).click();
  await page.getByRole('option', { name: 'Account', exact: true }).click();
  const accountValues = filter.getByRole('combobox', { name: 'Account values' });
  await accountValues.fill(account);
  await page.getByRole('option', { name: new RegExp(account) }).click();
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByRole('textbox', { name: 'Budget Name' }).fill(BUDGET_NAME);
  await page.getByRole('spinbutton', { name: 'Budget Amount' }).fill(String(amount));
  await expect(page.getByRole('combobox', { name: 'Budget Period' })).toHaveText('Monthly');
  await expect(page.getByRole('textbox', { name: 'Alert 1 threshold' })).toHaveValue('75');
  await expect(page.getByRole('textbox', { name: 'Alert 2 threshold' })).toHaveValue('100');
  const creating = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/v1/budgets');
  await page.getByRole('button', { name: 'Create Budget' }).click();
  const createdResponse = await creating;
  expect(createdResponse.status(), await createdResponse.text()).toBe(201);
  const created = (await createdResponse.json()) as Budget;
  expect(created).toMatchObject({ name: BUDGET_NAME, amount, period: 'Monthly', periodStart: monthStart });
  expect(cents(created.currentSpent)).toBe(cents(monthToDate));

  // Back on the dashboard: its card says Exceeded, and it counts as critical.
  await expect(page).toHaveURL(/\/budgets$/);
  const card = page.getByRole('article', { name: BUDGET_NAME });
  await expect(card.getByText('Exceeded', { exact: true })).toBeVisible();
  await expect(card).toContainText(usd(monthToDate));
  await expect(card).toContainText('2 alerts triggered');
  expect((await api.get<{ criticalBudgets: number }>('/v1/budgets/summary')).criticalBudgets).toBe(criticalBefore + 1);
  const criticalTile = page.getByRole('button', { name: /^CRITICAL/ });
  await expect(criticalTile).toHaveText(`CRITICAL${criticalBefore + 1}`);
  await criticalTile.click();
  await expect(page.getByText('Showing: Critical')).toBeVisible();
  await expect(card).toBeVisible();

  // The alert history lists both thresholds, crossed this period at the account's spend.
  await expect
    .poll(async () => (await api.get<AlertHistoryItem[]>(`/v1/budgets/${created.id}/alert-history`)).map((item) => item.thresholdValue).sort((a, b) => a - b))
    .toEqual([75, 100]);
  for (const item of await api.get<AlertHistoryItem[]>(`/v1/budgets/${created.id}/alert-history`)) {
    expect(item).toMatchObject({ thresholdType: 'Percentage', periodStart: monthStart });
    expect(cents(item.spentAmount)).toBe(cents(monthToDate));
  }

  // Mission Control lists it as critical in its budget health list (its own bands: 80 % and up);
  // the list opens its detail page.
  await page.goto('/');
  const overview = page.getByRole('region', { name: 'Budget Overview' });
  await overview.getByRole('button', { name: 'Detail' }).click();
  const healthRow = overview.getByRole('list', { name: 'Budget health' }).getByRole('link', { name: new RegExp(BUDGET_NAME) });
  await expect(healthRow).toContainText('Critical');
  await expect(healthRow).toContainText(`${usd(monthToDate)} / ${usd(amount)}`);
  await healthRow.click();
  await expect(page).toHaveURL(new RegExp(`/budgets/view/${created.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: BUDGET_NAME })).toBeVisible();
  await expect(page.getByText('Exceeded Budget', { exact: true })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Total Budget' })).toContainText(usd(amount));
  await expect(page.getByRole('group', { name: 'Current Spent' })).toContainText(usd(monthToDate));
  const alerts = page.getByRole('region', { name: 'Alerts', exact: true }).getByRole('listitem');
  await expect(alerts).toHaveCount(2);
  for (const label of ['75%', '100%']) {
    const alert = alerts.filter({ hasText: label });
    await expect(alert).toContainText(`Triggered on`);
    await expect(alert).toContainText(`at ${usd(monthToDate)} spent`);
  }

  // The Spending Trend, Daily over This Month: its data (downloaded as CSV) adds up to the
  // cost API's spend, one row per day from the 1st to today.
  const today = utcDay(now);
  // The page's calls for this month: the history, and the table's first page of resources.
  const isMonthCall = (res: Response, call: 'history' | 'resources') => {
    const url = new URL(res.url());
    const firstPage = call === 'history' || url.searchParams.get('page') === '1';
    return url.pathname === `/v1/budgets/${created.id}/${call}` && url.searchParams.get('startDate') === monthStart && firstPage;
  };
  const trend = page.getByRole('region', { name: 'Spending Trend', exact: true });
  await trend.getByRole('group', { name: 'Data type' }).getByRole('button', { name: 'Daily' }).click();
  const monthHistory = page.waitForResponse((res) => isMonthCall(res, 'history'));
  const monthResources = page.waitForResponse((res) => isMonthCall(res, 'resources'));
  await trend.getByRole('combobox', { name: 'Date Range' }).click();
  await page.getByRole('option', { name: 'This Month', exact: true }).click();
  expect((await monthHistory).status()).toBe(200);
  await expect(trend.getByRole('img', { name: 'Spending trend chart', exact: true }).locator('canvas').first()).toBeVisible();
  await trend.getByRole('button', { name: 'Download' }).click();
  const trendDownload = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Download as CSV' }).click();
  const trendCsv = await trendDownload;
  expect(trendCsv.suggestedFilename()).toBe(`budget-spending-${today}-E2E-AWS-account-daily.csv`);
  const [trendHeader, ...trendRows] = await csvLines(trendCsv);
  expect(trendHeader).toBe('Date,Spending,Budget');
  expect(trendRows[0].split(',')[0]).toBe(monthStart);
  expect(trendRows.at(-1)?.split(',')[0]).toBe(today);
  expect(trendRows).toHaveLength(now.getUTCDate());
  expect(sum(trendRows.map((row) => Number(row.split(',')[1])))).toBeCloseTo(monthToDate, 2);

  // The Resources table over the same days: the budget's whole spend there (totalCost, which
  // also counts charges without a resource: taxes, credits) is the cost API's; its entries,
  // exported all at once, are the listed resources and add up to the resources' cost.
  const resourcesResponse = await monthResources;
  expect(resourcesResponse.status()).toBe(200);
  const resources = (await resourcesResponse.json()) as ResourcesAnswer;
  expect(resources.totalCost).toBeCloseTo(monthToDate, 2);
  const resourcesTable = page.getByRole('region', { name: 'Resources', exact: true });
  const entries = resources.pagination.totalCount;
  expect(entries, 'the account has resources this month').toBeGreaterThan(0);
  await expect(resourcesTable.getByText(`Showing 1 to ${Math.min(10, entries)} of ${entries} entries`)).toBeVisible();
  await expect(resourcesTable.getByText(`Total cost: ${usd(resources.totalCost)} · resources ${usd(resources.resourcesCost)}`, { exact: false })).toBeVisible();
  await expect(resourcesTable.getByRole('table', { name: 'Budget resources' }).locator('tbody tr')).toHaveCount(Math.min(10, entries));
  const resourcesDownload = page.waitForEvent('download');
  await resourcesTable.getByRole('button', { name: `All (${entries})` }).click();
  const resourcesCsv = await resourcesDownload;
  expect(resourcesCsv.suggestedFilename()).toMatch(new RegExp(`^budget-resources-${today}-E2E-AWS-account-.*-all\\.csv$`));
  const [resourcesHeader, ...resourceRows] = await csvLines(resourcesCsv);
  expect(resourcesHeader).toBe('Cloud Provider,Account,Resource Name,Type,Region,Cost');
  expect(resourceRows).toHaveLength(entries);
  expect(resourceRows.every((row) => row.startsWith('AWS,') && row.includes(account))).toBe(true);
  expect(sum(resourceRows.map(lastNumber))).toBeCloseTo(resources.resourcesCost, 2);
  expect(resources.resourcesCost).toBeLessThanOrEqual(resources.totalCost + 0.005);

  // Edit the amount: twice the spend, so the budget is back on track.
  const newAmount = Math.ceil(monthToDate * 2);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/budgets/edit/${created.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Budget' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Filter 1' })).toContainText(account);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('spinbutton', { name: 'Budget Amount' })).toHaveValue(String(amount));
  await page.getByRole('spinbutton', { name: 'Budget Amount' }).fill(String(newAmount));
  await page.getByRole('button', { name: 'Update Budget' }).click();
  await expect(page).toHaveURL(/\/budgets$/);
  await expect(card.getByText('Exceeded', { exact: true })).toHaveCount(0);

  await card.getByRole('link', { name: BUDGET_NAME }).click();
  await expect(page.getByText('On Track', { exact: true })).toBeVisible();
  const history = page.getByRole('table', { name: 'Configuration Change History' });
  const amountChange = history.getByRole('row').filter({ hasText: `Amount changed from ${usd(amount)} to ${usd(newAmount)}` });
  await expect(amountChange).toHaveCount(1);
  await expect(amountChange).toContainText('Demo User');
  await expect(amountChange).toContainText('Updated');
  await expect(history.getByRole('row').filter({ hasText: 'Budget created' })).toHaveCount(1);

  // Delete it by typing its name.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Budget' });
  const confirm = dialog.getByRole('button', { name: 'Delete' });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Budget name' }).fill(BUDGET_NAME.toLowerCase());
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Budget name' }).fill(BUDGET_NAME);
  await confirm.click();
  await expect(page).toHaveURL(/\/budgets$/);
  await expect(page.getByRole('article', { name: BUDGET_NAME })).toHaveCount(0);
  expect(await api.status('GET', `/v1/budgets/${created.id}`)).toBe(404);
});
