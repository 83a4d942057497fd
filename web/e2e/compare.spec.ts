// Journeys (issue 16, docs/ANALYST-FLOW.md "Compare", "Top movers"): the demo user opens Compare
// from the menu and groups by service; every row on screen is the row POST /v2/cost/compare gives
// for the page's own request, and the totals are what two POST /v2/cost/aggr calls give for the
// current and the previous period. On Mission Control, Top movers lists the five services the
// compare call ranks first, with the same changes; clicking one opens Advanced Cost drilled into it.
import type { Page } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const DAY_MS = 86_400_000;

interface CompareRow {
  key: string;
  name?: string | null;
  current: number;
  previous: number;
  change: number;
  percent_change?: number | null;
}
interface CompareAnswer {
  current_period: { start_time: string; end_time: string };
  previous_period: { start_time: string; end_time: string };
  currency: string;
  rows: CompareRow[];
  totals: CompareRow;
  total_groups: number;
}
interface AggrAnswer {
  summary: { accrued_cost: number; currency?: string };
}

async function post<T>(page: Page, path: string, body: unknown): Promise<T> {
  const token = await accessTokenOf(page);
  const res = await page.request.post(path, { data: body, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** Money as the screens write it (en-US, the answer's currency; never "-$0"). */
function money(amount: number, currency: string, decimals = 2): string {
  const value = Math.abs(amount) < 0.5 * 10 ** -decimals ? 0 : amount;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

function signed(amount: number, currency: string, decimals = 2): string {
  const text = money(amount, currency, decimals);
  return text === money(0, currency, decimals) || text.startsWith('-') ? text : `+${text}`;
}

/** "▲ 12.5 %", "▼ 3.0 %", "0.0 %", "New", "—" (docs/ANALYST-FLOW.md "Compare"). */
function percentText(row: CompareRow): string {
  const percent = row.percent_change;
  if (percent === null || percent === undefined) return row.previous === 0 && row.current !== 0 ? 'New' : '—';
  const rounded = Math.round(percent * 10) / 10;
  if (rounded === 0) return '0.0 %';
  return `${rounded > 0 ? '▲' : '▼'} ${Math.abs(rounded).toFixed(1)} %`;
}

function rowLabel(row: CompareRow): string {
  const key = row.key.trim();
  const name = row.name?.trim();
  if (name && key && name !== key) return `${name} (${key})`;
  return name || key || 'Unknown';
}

/** Mission Control's "This Month" (UTC). */
function thisMonth(now: Date) {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { start: new Date(start).toISOString(), end: new Date(today + DAY_MS - 1).toISOString() };
}

test('Compare by service: the rows are the compare API\'s, the totals two aggr totals', async ({ page }) => {
  test.setTimeout(120_000);
  const sent: Array<Record<string, unknown>> = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/v2/cost/compare') sent.push(req.postDataJSON() as Record<string, unknown>);
  });
  await signInThroughForm(page, DEMO.email, DEMO.password);

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Compare' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Compare' })).toBeVisible();
  await expect(page).toHaveURL(/\/cost\/compare\?/);

  // Group by service (first by account, so that the choice is the person's).
  const groupBy = page.getByRole('combobox', { name: 'Group By' });
  await groupBy.click();
  await page.getByRole('option', { name: 'Account' }).click();
  await expect(page.getByRole('table', { name: 'Comparison by account' })).toBeVisible();
  await groupBy.click();
  await page.getByRole('option', { name: 'Service' }).click();
  await expect(page).toHaveURL(/[?&]group=service(&|$)/);
  const table = page.getByRole('table', { name: 'Comparison by service' });
  await expect(table).toBeVisible();

  // The page's own request (the first answer by service may come from the page's cache), asked again directly.
  const byService = () => sent.filter((body) => body.group_by === 'service').at(-1);
  await expect.poll(() => byService()?.group_by).toBe('service');
  const request = byService()!;
  expect(request).toMatchObject({ group_by: 'service', order_by: 'change' });
  expect(request).not.toHaveProperty('previous_start_time');
  const answer = await post<CompareAnswer>(page, '/v2/cost/compare', request);
  expect(answer.rows.length, 'the demo tenant has services this month or last').toBeGreaterThan(0);
  expect(answer.total_groups).toBe(answer.rows.length);
  const { currency } = answer;

  // Every row, in the API's order (the table is sorted by change), with the same figures.
  const bodyRows = table.locator('tbody tr');
  await expect(bodyRows).toHaveCount(answer.rows.length);
  const expected = answer.rows.map((row) => [rowLabel(row), money(row.previous, currency), money(row.current, currency), signed(row.change, currency), percentText(row)]);
  const onScreen = await bodyRows.evaluateAll((rows) => rows.map((tr) => Array.from(tr.querySelectorAll('th, td'), (cell) => cell.textContent ?? '')));
  expect(onScreen).toEqual(expected);

  // The totals: what POST /v2/cost/aggr gives for each period with the same filters and charge types.
  const aggrTotal = async (period: { start_time: string; end_time: string }) =>
    (
      await post<AggrAnswer>(page, '/v2/cost/aggr', {
        start_time: period.start_time,
        end_time: period.end_time,
        filters: request.filters,
        cost_type: request.cost_type,
        group_by: 'none',
        group_by_dimensions: [],
      })
    ).summary.accrued_cost;
  const current = await aggrTotal(answer.current_period);
  const previous = await aggrTotal(answer.previous_period);
  expect(Math.round(answer.totals.current * 100)).toBe(Math.round(current * 100));
  expect(Math.round(answer.totals.previous * 100)).toBe(Math.round(previous * 100));
  const totals = table.locator('tfoot tr');
  await expect(totals.locator('th, td')).toHaveText([
    'Total',
    money(previous, currency),
    money(current, currency),
    signed(current - previous, currency),
    percentText({ key: '', current, previous, change: current - previous, percent_change: previous === 0 ? null : ((current - previous) / Math.abs(previous)) * 100 }),
  ]);

  // The previous period is the same number of days just before, and the page says which.
  const days = (p: { start_time: string; end_time: string }) => Math.round((Date.parse(p.end_time) + 1 - Date.parse(p.start_time)) / DAY_MS);
  expect(days(answer.previous_period)).toBe(days(answer.current_period));
  expect(Date.parse(answer.previous_period.end_time) + 1).toBe(Date.parse(answer.current_period.start_time));
  await expect(page.getByTestId('compare-periods')).toContainText(' vs ');

  // A reload keeps the state from the address.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Comparison by service' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Group By' })).toHaveText('Service');
});

test('Mission Control Top movers: the five services of the compare API, and a click drills into one', async ({ page }) => {
  test.setTimeout(120_000);
  await signInThroughForm(page, DEMO.email, DEMO.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Mission Control' })).toBeVisible();
  const browserNow = new Date(await page.evaluate(() => new Date().toISOString()));
  const month = thisMonth(browserNow);

  const answer = await post<CompareAnswer>(page, '/v2/cost/compare', {
    start_time: month.start,
    end_time: month.end,
    group_by: 'service',
    filters: [],
    order_by: 'change',
    limit: 5,
  });
  expect(answer.rows).toHaveLength(5);

  const card = page.getByRole('region', { name: 'Top movers' });
  const services = card.getByRole('list', { name: 'Services' }).getByRole('link');
  await expect(services).toHaveCount(5);
  const { currency } = answer;
  for (const [i, row] of answer.rows.entries()) {
    const link = services.nth(i);
    await expect(link).toContainText(row.name?.trim() || row.key);
    await expect(link).toContainText(money(row.current, currency, 0));
    await expect(link).toContainText(signed(row.change, currency, 0));
    await expect(link).toContainText(percentText(row));
  }

  // The first mover: Advanced Cost filtered to it and grouped by usage type, with the drill path.
  const first = answer.rows[0];
  await services.first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeVisible();
  await expect(page).toHaveURL(/\/cost\/advanced\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('group')).toBe('usage_type');
  expect(url.searchParams.get('drill')).toBe(`service:${first.key}`);
  expect(url.searchParams.get('filters')).toContain(`service=${first.key}`);
  await expect(page.getByRole('combobox', { name: 'Group By' })).toHaveText('Usage Type');
});
