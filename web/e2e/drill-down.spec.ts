// Journey (docs/ANALYST-FLOW.md "Drill-down (Advanced Cost)"): the demo user groups Advanced Cost by
// service and clicks the row of the largest service. The page is then filtered to that service
// (a filter chip), grouped by usage type, with a breadcrumb and `drill=` in the link; a reload
// keeps all of it; the figures on screen are the cost API's for the same filter; the breadcrumb
// steps back to all costs; the chart's series drill by keyboard as well.
import type { Page } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

interface Row {
  amount: number;
  service?: string;
  usage_type?: string;
}
interface AggrAnswer {
  data: Row[];
  summary: { accrued_cost: number };
  total_groups: number;
  warnings: string[];
}

async function aggr(page: Page, body: Record<string, unknown>): Promise<AggrAnswer> {
  const token = await accessTokenOf(page);
  const res = await page.request.post('/v2/cost/aggr', { data: body, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as AggrAnswer;
}

/** Waits until the page has asked for and shown the answer to its latest change (1000 ms debounce). */
async function settled(page: Page) {
  await expect(page.getByRole('progressbar', { name: 'Updating cost data' })).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('table', { name: 'Cost by group' })).toBeVisible({ timeout: 20_000 });
}

/** The values escaped as the link escapes them (docs/ANALYST-FLOW.md: as the `filters` compact form). */
function escapeToken(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('drill-down: the largest service, by usage type, as the API answers it; kept on reload; back by the breadcrumb', async ({ page }) => {
  test.setTimeout(180_000);
  const sent: Array<Record<string, unknown>> = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/v2/cost/aggr') sent.push(req.postDataJSON() as Record<string, unknown>);
  });
  await signInThroughForm(page, DEMO.email, DEMO.password);

  // Advanced Cost from the menu, grouped by service.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Advanced Cost' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Group By' }).click();
  await page.getByRole('option', { name: 'Service' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/[?&]group=service(&|$)/);
  await settled(page);

  // The page's own table request: its range and charge types are the ones asked below.
  const tableBody = sent.filter((body) => body.interval === undefined).at(-1)!;
  expect(tableBody).toMatchObject({ group_by_dimensions: ['service'], filters: [] });
  const common = { start_time: tableBody.start_time, end_time: tableBody.end_time, cost_type: tableBody.cost_type, limit: 1000 };
  const byService = await aggr(page, { ...common, group_by: 'service', group_by_dimensions: ['service'], filters: [] });
  expect(byService.data.length).toBeGreaterThan(1);
  const largest = byService.data[0];
  const service = largest.service!;
  console.log('largest service', service, largest.amount, 'of', byService.summary.accrued_cost);

  const table = page.getByRole('table', { name: 'Cost by group' });
  await expect(table.locator('tbody tr').first().locator('td').first()).toHaveText(service);
  await expect(page.getByTestId('total-cost')).toHaveText(usd.format(byService.summary.accrued_cost));

  // Click the largest service's row.
  await table.getByRole('button', { name: `Drill into ${service}`, exact: true }).click();

  const drillParam = `drill=service:${escapeToken(service)}`;
  const expectDrilled = async () => {
    await expect(page.getByRole('combobox', { name: 'Group By' })).toHaveText('Usage Type');
    await expect(page.getByRole('list', { name: 'Applied filters' }).getByText(`Service equals ${service}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Drill-down path' }).getByRole('listitem')).toHaveText(['All costs', `Service: ${service}`]);
    await expect(page).toHaveURL(new RegExp(`[?&]group=usage_type(&|$)`));
    await expect(page).toHaveURL(new RegExp(`[?&]${escapeRegExp(drillParam)}(&|$)`));
    await expect(page).toHaveURL(new RegExp(`[?&]filters=${escapeRegExp(`*(service=${escapeToken(service)})`)}(&|$)`));
    await settled(page);
  };
  await expectDrilled();

  // The same question asked of the API: the service as a condition, by usage type.
  const serviceFilter = [{ operator: 'AND', services: [{ operator: 'equals', values: [service] }] }];
  const byUsageType = await aggr(page, { ...common, group_by: 'usage_type', group_by_dimensions: ['usage_type'], filters: serviceFilter });
  expect(byUsageType.warnings).toEqual([]);
  expect(byUsageType.data.length).toBeGreaterThan(0);
  // The drilled total is the service's amount in the grouped view, to the cent.
  expect(Math.round(byUsageType.summary.accrued_cost * 100)).toBe(Math.round(largest.amount * 100));
  const expectFigures = async () => {
    await expect(page.getByTestId('total-cost')).toHaveText(usd.format(byUsageType.summary.accrued_cost));
    const rows = table.locator('tbody tr');
    const shown = byUsageType.data.slice(0, 25);
    await expect(rows).toHaveCount(shown.length);
    await expect(rows.locator('td:nth-child(1)')).toHaveText(shown.map((row) => row.usage_type ?? 'Unknown'));
    await expect(rows.locator('td:nth-child(2)')).toHaveText(shown.map((row) => usd.format(row.amount)));
  };
  await expectFigures();
  // The page asked exactly that.
  expect(sent.filter((body) => body.interval === undefined).at(-1)).toMatchObject({
    start_time: common.start_time,
    end_time: common.end_time,
    cost_type: common.cost_type,
    filters: serviceFilter,
    group_by_dimensions: ['usage_type'],
  });

  // A reload keeps the drill-down.
  const drilledUrl = page.url();
  await page.reload();
  await expect(page).toHaveURL(drilledUrl);
  await expectDrilled();
  await expectFigures();

  // Back to all costs by the breadcrumb: grouped by service again, no filter, no drill in the link.
  await page.getByRole('navigation', { name: 'Drill-down path' }).getByRole('button', { name: 'All costs' }).click();
  await expect(page.getByRole('navigation', { name: 'Drill-down path' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Applied filters' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Group By' })).toHaveText('Service');
  await expect(page).not.toHaveURL(/[?&](drill|filters)=/);
  await settled(page);
  await expect(page.getByTestId('total-cost')).toHaveText(usd.format(byService.summary.accrued_cost));
  await expect(table.locator('tbody tr').first().locator('td').first()).toHaveText(service);

  // The chart by keyboard: its series' buttons (in its data table, on screen while focused) drill too.
  const chartButton = page.getByRole('table', { name: 'Advanced cost chart data' }).getByRole('button', { name: `Drill into ${service}`, exact: true });
  await chartButton.focus();
  await expect(chartButton).toBeVisible();
  await page.keyboard.press('Enter');
  await expectDrilled();
  await expect(page.getByTestId('total-cost')).toHaveText(usd.format(byUsageType.summary.accrued_cost));
});
