// Journey (issue 16, docs/WEB-COST.md "Cost Query (filter builder)"): the demo user opens Cost
// Query from the menu, tries to add a filter without a value ("Please enter a value"), builds
// service contains "EC2" AND cost amount greater than a figure, groups by region over the last 90
// days and runs it. The total and every row on screen are what POST /v1/query answers for the
// page's own request (asked again with the page's token); the CSV holds the same rows. The filters
// are saved as a preset; after a reload (the page keeps no filters) loading the preset and running
// again gives the same table.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };

interface QueryRow {
  amount: number;
  region?: string | null;
}
interface QueryAnswer {
  data: QueryRow[];
  summary: { accrued_cost: number };
  currency: string;
  total_groups: number;
  warnings: string[];
}
interface QueryBody {
  filters: Array<{ field: string; operator: string; value: unknown }>;
  logic: string;
  start_time: string;
  end_time: string;
  group_by: string;
}

async function postQuery(page: Page, body: unknown): Promise<QueryAnswer> {
  const token = await accessTokenOf(page);
  const res = await page.request.post('/v1/query', { data: body, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), `/v1/query: ${await res.text()}`).toBe(200);
  return (await res.json()) as QueryAnswer;
}

/** Money as the screens write it (en-US, the answer's currency, 2 decimals; never "-$0"). */
function money(amount: number, currency: string): string {
  const value = Math.abs(amount) < 0.005 ? 0 : amount;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

function share(amount: number, total: number): string {
  if (total === 0) return '—';
  const rounded = Math.round((amount / total) * 1000) / 10;
  return `${rounded === 0 ? '0.0' : rounded.toFixed(1)}%`;
}

const regionLabel = (row: QueryRow) => row.region?.trim() || 'Unknown';

/** The table as the API's answer says it should read, with the total line. */
function expectedLines(answer: QueryAnswer): string[][] {
  const total = answer.summary.accrued_cost;
  return [
    ...answer.data.map((row) => [regionLabel(row), money(row.amount, answer.currency), share(row.amount, total)]),
    ['Total', money(total, answer.currency), share(total, total)],
  ];
}

async function tableLines(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr, tfoot tr').evaluateAll((rows) => rows.map((tr) => Array.from(tr.querySelectorAll('th, td'), (cell) => cell.textContent ?? '')));
}

async function choose(page: Page, name: string, option: string) {
  await page.getByRole('combobox', { name, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('Cost Query: service contains EC2 and an amount floor, by region — the table is POST /v1/query\'s answer; a preset brings it back', async ({ page }) => {
  test.setTimeout(180_000);
  const sent: QueryBody[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/v1/query') sent.push(req.postDataJSON() as QueryBody);
  });
  await signInThroughForm(page, DEMO.email, DEMO.password);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Cost Query' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cost Query' })).toBeVisible();
  await expect(page).toHaveURL(/\/cost\/query$/);

  const builder = page.getByRole('group', { name: 'New filter' });
  const addFilter = builder.getByRole('button', { name: 'Add Filter' });

  // An add without a value names what is missing.
  await choose(page, 'Field', 'Service');
  await choose(page, 'Operator', 'contains');
  await addFilter.click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a value');

  await builder.getByRole('combobox', { name: 'Value' }).fill('EC2');
  await addFilter.click();
  const added = page.getByRole('list', { name: 'Added filters' }).getByRole('listitem');
  await expect(added).toHaveText(['Service contains EC2']);

  await choose(page, 'Period', 'Last 90 Days');
  await choose(page, 'Group By', 'Region');

  // The figure: between the middle two regions of EC2 spend, so that the floor keeps some and drops some.
  const { start_time, end_time } = await (async () => {
    await page.getByRole('button', { name: 'Run Query' }).click();
    await expect(page.getByRole('table', { name: 'Query results by region' })).toBeVisible();
    await expect.poll(() => sent.length).toBe(1);
    return sent[0];
  })();
  expect(sent[0]).toEqual({ filters: [{ field: 'service_name', operator: 'contains', value: 'EC2' }], logic: 'and', start_time, end_time, group_by: 'region' });
  const ec2 = await postQuery(page, sent[0]);
  expect(ec2.data.length, 'the demo tenant has EC2 spend in the last 90 days').toBeGreaterThan(0);
  const amounts = ec2.data.map((row) => row.amount).sort((a, b) => b - a);
  const middle = Math.floor((amounts.length - 1) / 2);
  const floor = amounts.length > 1 ? Math.floor(((amounts[middle] + amounts[middle + 1]) / 2) * 100) / 100 : Math.floor(amounts[0] * 50) / 100;

  await choose(page, 'Field', 'Cost Amount');
  await choose(page, 'Operator', 'greater than');
  await builder.getByRole('spinbutton', { name: 'Value' }).fill(String(floor));
  await addFilter.click();
  await expect(added).toHaveText(['Service contains EC2', `Cost Amount greater than ${floor}`]);
  await expect(page.getByText(/changed since this query ran/)).toBeVisible();

  await page.getByRole('button', { name: 'Run Query' }).click();
  await expect.poll(() => sent.length).toBe(2);
  const request = sent[1];
  expect(request.filters).toEqual([
    { field: 'service_name', operator: 'contains', value: 'EC2' },
    { field: 'cost_amount', operator: 'greater_than', value: floor },
  ]);
  const answer = await postQuery(page, request);
  expect(answer.data.length).toBeGreaterThan(0);
  expect(answer.data.every((row) => row.amount > floor)).toBe(true);
  if (amounts.length > 1) expect(answer.data.length).toBeLessThan(ec2.data.length);

  const table = page.getByRole('table', { name: 'Query results by region' });
  await expect(page.getByText(/changed since this query ran/)).toHaveCount(0);
  const expected = expectedLines(answer);
  await expect.poll(() => tableLines(table)).toEqual(expected);
  await expect(page.getByTestId('query-total')).toHaveText(money(answer.summary.accrued_cost, answer.currency));

  // Export CSV: the same rows, amounts unrounded, then the total.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^cost-query-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8').trimEnd().split('\n');
  expect(csv[0]).toBe(`Region,Amount (${answer.currency}),Share %`);
  expect(csv.slice(1, -1).map((line) => Number(line.split(',').at(-2)))).toEqual(answer.data.map((row) => row.amount));
  expect(csv.at(-1)).toBe(`Total,${answer.summary.accrued_cost},100`);

  // Save the filters as a preset.
  await page.getByRole('button', { name: 'Save preset' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save preset' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('EC2 above the floor');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('e2e cost-query.spec.ts');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Preset: EC2 above the floor')).toBeVisible();

  // A reload starts without filters; the preset brings them back, and the same query gives the same table.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Cost Query' })).toBeVisible();
  await expect(page.getByText('No filters: the query covers every cost of the period.')).toBeVisible();
  await page.getByRole('button', { name: 'Presets' }).click();
  await page.getByRole('list', { name: 'Saved presets' }).getByRole('button', { name: /^EC2 above the floor/ }).click();
  await expect(added).toHaveText(['Service contains EC2', `Cost Amount greater than ${floor}`]);
  await choose(page, 'Period', 'Last 90 Days');
  await choose(page, 'Group By', 'Region');
  const before = sent.length;
  await page.getByRole('button', { name: 'Run Query' }).click();
  await expect.poll(() => sent.length).toBe(before + 1);
  expect(sent.at(-1)).toEqual(request);
  await expect.poll(() => tableLines(page.getByRole('table', { name: 'Query results by region' }))).toEqual(expected);

  // Clean up: delete the preset.
  await page.getByRole('button', { name: 'Presets' }).click();
  await page.getByRole('button', { name: 'Delete preset EC2 above the floor' }).click();
  await expect(page.getByText('No saved presets')).toBeVisible();
});
