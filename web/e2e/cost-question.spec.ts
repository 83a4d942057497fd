// Journey (issue 4, "Done when"): signed in as the demo user, a person answers "what did we spend
// on EC2 in eu-west-1 last quarter, by account, without credits?" through the Advanced Cost page
// only, in a few clicks. The answer on screen is the cost API's answer to the same request, to the
// cent, account by account; and that answer agrees with what the API gives for the same line items
// asked another way (POST /v1/query, and the daily buckets of POST /v2/cost/aggr).
import type { Locator, Page } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const REGION = 'eu-west-1';
/** The charge types the Include select counts by default (spec 1 §3): usage only, no credits or refunds. */
const USAGE_ONLY = ['Usage', 'regular'];

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const dayName = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const monthTitle = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

interface AccountRow {
  amount: number;
  account?: string;
  account_name?: string;
  timestamp?: string;
}
interface AggrAnswer {
  data: AccountRow[];
  summary: { accrued_cost: number };
  total_groups: number;
  warnings: string[];
}
interface FilterOptions {
  services: string[];
  regions: string[];
  cost_type: string[];
}

async function post<T>(page: Page, path: string, body: unknown): Promise<T> {
  const token = await accessTokenOf(page);
  const res = await page.request.post(path, { data: body, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** The previous calendar quarter of a UTC day: its first and last days, as Dates at 00:00 UTC. */
function previousQuarter(today: Date): { first: Date; last: Date } {
  const quarterStartMonth = Math.floor(today.getUTCMonth() / 3) * 3;
  const first = new Date(Date.UTC(today.getUTCFullYear(), quarterStartMonth - 3, 1));
  const last = new Date(Date.UTC(today.getUTCFullYear(), quarterStartMonth, 0));
  return { first, last };
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** "Production (111111111111)": how the table names an account that has a name (as the API's rows carry it). */
function accountLabel(row: AccountRow): string {
  const id = row.account ?? '';
  return row.account_name && row.account_name !== id ? `${row.account_name} (${id})` : id;
}

test('what did we spend on EC2 in eu-west-1 last quarter, by account, without credits?', async ({ page }) => {
  test.setTimeout(180_000);
  let clicks = 0;
  const click = async (target: Locator) => {
    await target.click();
    clicks += 1;
  };
  // The page's own cost requests, to compare with the one made directly below.
  const sent: Array<Record<string, unknown>> = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/v2/cost/aggr') sent.push(req.postDataJSON() as Record<string, unknown>);
  });

  await signInThroughForm(page, DEMO.email, DEMO.password);

  // Last quarter, from the browser's clock, in UTC (spec 1 §9).
  const browserNow = new Date(await page.evaluate(() => new Date().toISOString()));
  const quarter = previousQuarter(browserNow);
  const [firstDay, lastDay] = [utcDay(quarter.first), utcDay(quarter.last)];
  console.log('last quarter', firstDay, '…', lastDay, '(today', utcDay(browserNow), ')');

  // The demo's EC2 service as the API names it among the AWS options of that quarter.
  const awsOnly = [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['aws'] }] }];
  const awsOptions = await post<FilterOptions>(page, '/v2/cost/filters', { start_date: firstDay, end_date: lastDay, filters: awsOnly });
  const ec2 = awsOptions.services.find((name) => /EC2|Elastic Compute Cloud/i.test(name));
  expect(ec2, `an EC2 service among ${awsOptions.services.join(', ')}`).toBeTruthy();
  const service = ec2 as string;
  expect(awsOptions.regions).toContain(REGION);
  console.log('EC2 service name', service);

  // 1. Advanced Cost, from the menu.
  await click(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Advanced Cost' }).first());
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeVisible();
  await expect(page).toHaveURL(/\/cost\/advanced\?/);

  // 2. Group By: Account only (the page starts ungrouped).
  await expect(page.getByRole('combobox', { name: 'Group By' })).toHaveText('Ungrouped');
  await click(page.getByRole('combobox', { name: 'Group By' }));
  await click(page.getByRole('option', { name: 'Account' }));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('combobox', { name: 'Group By' })).toHaveText('Account');
  await expect(page).toHaveURL(/[?&]group=account(&|$)/);

  // 3. View: Monthly.
  await click(page.getByRole('combobox', { name: 'View' }));
  await click(page.getByRole('option', { name: 'Monthly' }));
  await expect(page.getByRole('combobox', { name: 'View' })).toHaveText('Monthly');

  // 4. Period: Custom Range over last quarter, picked in the two-month dialog. It opens on
  // last month and this month; go back until the quarter's first month is on the left, pick its
  // first day, then forward until its last month is on the right and pick its last day.
  const beforePeriod = clicks;
  await click(page.getByRole('combobox', { name: 'Period' }));
  await click(page.getByRole('option', { name: 'Custom Range' }));
  const rangeDialog = page.getByRole('dialog', { name: 'Select Custom Date Range' });
  await expect(rangeDialog).toBeVisible();
  const showMonth = async (month: Date, direction: 'Previous month' | 'Next month') => {
    const grid = rangeDialog.getByRole('group', { name: monthTitle.format(month) });
    for (let step = 0; step < 24 && (await grid.count()) === 0; step += 1) {
      await click(rangeDialog.getByRole('button', { name: direction }));
    }
    await expect(grid).toBeVisible();
    return grid;
  };
  const firstMonth = await showMonth(quarter.first, 'Previous month');
  await click(firstMonth.getByRole('button', { name: dayName.format(quarter.first), exact: true }));
  const lastMonth = await showMonth(quarter.last, 'Next month');
  await click(lastMonth.getByRole('button', { name: dayName.format(quarter.last), exact: true }));
  await expect(rangeDialog).toContainText('Duration: ');
  await click(rangeDialog.getByRole('button', { name: 'Apply Range' }));
  await expect(rangeDialog).toBeHidden();
  const periodClicks = clicks - beforePeriod;
  const rangeLabel = `${shortDay.format(quarter.first)} – ${shortDay.format(quarter.last)}`;
  await expect(page.getByRole('combobox', { name: 'Period' })).toHaveText(rangeLabel);
  await expect(page).toHaveURL(new RegExp(`period=custom&from=${firstDay}&to=${lastDay}`));

  // 5. Include: without credits. Credit and Refund are offered and not ticked (the analysis
  // counts usage only by default, spec 1 §3), so they stay out; the person checks and closes.
  const include = page.getByRole('combobox', { name: 'Include' });
  await click(include);
  const chargeTypes = page.getByRole('listbox');
  for (const name of ['Credit', 'Refund']) {
    await expect(chargeTypes.getByRole('option', { name, exact: true })).toHaveAttribute('aria-selected', 'false');
  }
  await expect(chargeTypes.getByRole('option', { name: 'Usage', exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/[?&]include=Usage,regular(&|$)/);

  // 6. Filters: a rule from AWS with two conditions, service = EC2 and region = eu-west-1.
  await click(page.getByRole('button', { name: 'Filters', exact: true }));
  const panel = page.getByRole('dialog', { name: 'Filters' });
  await click(panel.getByRole('button', { name: 'New Rule' }));
  await click(panel.getByRole('combobox', { name: 'Cloud Provider' }));
  await click(page.getByRole('option', { name: 'AWS', exact: true }));
  const chooseCondition = async (field: 'Service' | 'Region', value: string) => {
    await click(panel.getByRole('button', { name: 'Condition', exact: true }));
    const row = panel.getByRole('group', { name: 'New condition' });
    await click(row.getByRole('combobox', { name: 'Field' }));
    await click(page.getByRole('option', { name: field, exact: true }));
    const filled = panel.getByRole('group', { name: `${field} condition` });
    await click(filled.getByRole('combobox', { name: 'Values' }));
    // The options are the provider's values of the period (loaded when the panel opened).
    await click(page.getByRole('listbox').getByRole('option', { name: value, exact: true }));
    await expect(filled).toContainText(value);
  };
  await chooseCondition('Service', service);
  await chooseCondition('Region', REGION);
  await click(panel.getByRole('button', { name: 'Apply' }));
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'Filters (3 applied)' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`filters=aws\\(service=${service};region=${REGION}\\)`));

  // The same question asked of the API directly (docs/API-COST.md).
  const request = {
    start_time: `${firstDay}T00:00:00.000Z`,
    end_time: `${lastDay}T23:59:59.999Z`,
    filters: [
      {
        operator: 'AND',
        cloud_providers: [{ operator: 'equals', values: ['aws'] }],
        services: [{ operator: 'equals', values: [service] }],
        regions: [{ operator: 'equals', values: [REGION] }],
      },
    ],
    cost_type: { inclusions: USAGE_ONLY },
  };
  const byAccount = await post<AggrAnswer>(page, '/v2/cost/aggr', {
    ...request,
    group_by: 'account',
    group_by_dimensions: ['account'],
    limit: 1000,
  });
  expect(byAccount.warnings).toEqual([]);
  expect(byAccount.summary.accrued_cost).toBeGreaterThan(0);
  expect(byAccount.data.length).toBeGreaterThan(0);
  expect(byAccount.total_groups).toBe(byAccount.data.length);

  // The total on screen is the API's, to the cent; one table row per account, each the API's amount.
  await expect(page.getByTestId('period-label')).toHaveText(rangeLabel);
  await expect(page.getByTestId('total-cost')).toHaveText(usd.format(byAccount.summary.accrued_cost), { timeout: 20_000 });
  await expect(page.getByRole('progressbar', { name: 'Updating cost data' })).toHaveCount(0, { timeout: 20_000 });
  const table = page.getByRole('table', { name: 'Cost by group' });
  await expect(table.getByRole('columnheader')).toHaveText(['Account', 'Cost', 'Share of total']);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(byAccount.total_groups);
  await expect(rows.locator('td:nth-child(1)')).toHaveText(byAccount.data.map(accountLabel));
  await expect(rows.locator('td:nth-child(2)')).toHaveText(byAccount.data.map((row) => usd.format(row.amount)));
  // The page asked exactly that: its table request is the one above, its chart request the same
  // by month.
  const asked = { start_time: request.start_time, end_time: request.end_time, filters: request.filters, cost_type: request.cost_type };
  expect(sent.filter((body) => body.interval === undefined).at(-1)).toMatchObject({ ...asked, group_by_dimensions: ['account'] });
  expect(sent.filter((body) => body.interval !== undefined).at(-1)).toMatchObject({ ...asked, group_by_dimensions: ['account'], interval: 'monthly', view_type: 'monthly' });
  // Monthly view: the chart's buckets are the quarter's three months.
  await expect(page.getByTestId('cost-chart').locator('canvas').first()).toBeVisible();
  const monthly = await post<AggrAnswer>(page, '/v2/cost/aggr', {
    ...request,
    group_by: 'account',
    group_by_dimensions: ['account'],
    interval: 'monthly',
    view_type: 'monthly',
  });
  expect([...new Set(monthly.data.map((row) => row.timestamp))].sort()).toEqual(
    [0, 1, 2].map((m) => utcDay(new Date(Date.UTC(quarter.first.getUTCFullYear(), quarter.first.getUTCMonth() + m, 1)))),
  );
  expect(monthly.summary.accrued_cost).toBeCloseTo(byAccount.summary.accrued_cost, 6);

  // Source data: the same line items asked another way agree with that answer.
  // a) POST /v1/query, the advanced filtering endpoint, with the conditions as its own filter list.
  const queryFilters = [
    { field: 'cloud_provider', operator: 'equals', value: 'aws' },
    { field: 'service_name', operator: 'equals', value: service },
    { field: 'region', operator: 'equals', value: REGION },
    { field: 'cost_type', operator: 'in', value: USAGE_ONLY },
  ];
  const queryTotal = await post<AggrAnswer>(page, '/v1/query', {
    filters: queryFilters,
    logic: 'and',
    start_time: request.start_time,
    end_time: request.end_time,
    group_by: ['none'],
  });
  const queryByAccount = await post<AggrAnswer>(page, '/v1/query', {
    filters: queryFilters,
    logic: 'and',
    start_time: request.start_time,
    end_time: request.end_time,
    group_by: ['account'],
  });
  // b) The daily buckets of the ungrouped line items, summed.
  const daily = await post<AggrAnswer>(page, '/v2/cost/aggr', { ...request, group_by: 'none', interval: 'daily' });
  const dailySum = daily.data.reduce((sum, row) => sum + row.amount, 0);
  // c) For the record: the same with every charge type (credits, refunds, taxes included).
  const everyCharge = await post<AggrAnswer>(page, '/v2/cost/aggr', { ...request, cost_type: undefined, group_by: 'none' });

  console.log('total on screen', await page.getByTestId('total-cost').textContent());
  console.log('POST /v2/cost/aggr by account', byAccount.summary.accrued_cost, JSON.stringify(byAccount.data.map((r) => [accountLabel(r), r.amount])));
  console.log('POST /v1/query total', queryTotal.summary.accrued_cost, 'by account', JSON.stringify(queryByAccount.data.map((r) => [r.account, r.amount])));
  console.log('POST /v2/cost/aggr daily buckets', daily.data.length, 'summed', dailySum);
  console.log('every charge type (for comparison)', everyCharge.summary.accrued_cost);

  const cents = (amount: number) => Math.round(amount * 100);
  expect(cents(queryTotal.summary.accrued_cost)).toBe(cents(byAccount.summary.accrued_cost));
  expect(queryTotal.data.map((row) => cents(row.amount))).toEqual([cents(byAccount.summary.accrued_cost)]);
  expect(queryByAccount.data.map((row) => [row.account, cents(row.amount)])).toEqual(byAccount.data.map((row) => [row.account, cents(row.amount)]));
  expect(daily.data.length).toBeGreaterThan(0);
  expect(daily.data.every((row) => row.timestamp !== undefined && row.timestamp >= firstDay && row.timestamp <= lastDay)).toBe(true);
  expect(cents(dailySum)).toBe(cents(byAccount.summary.accrued_cost));
  expect(cents(byAccount.data.reduce((sum, row) => sum + row.amount, 0))).toBe(cents(byAccount.summary.accrued_cost));

  console.log('clicks', clicks, `(of which ${periodClicks} to pick the period in the two-month dialog)`);
  // 21 clicks besides the period; the period takes 8 to 10 depending on where today falls in its
  // quarter (the dialog opens on last month and this month).
  expect(clicks - periodClicks).toBe(21);
  expect(periodClicks).toBeLessThanOrEqual(10);
});
