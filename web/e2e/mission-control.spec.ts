// Journey: the demo user signs in and lands on Mission Control. The four spend cards show what
// POST /v2/cost/spend answers for the same period, they follow a change of period, and the cost by
// service category shows the largest category with the amount POST /v2/cost/service-categories
// gives, and the categories add up to the month's spend.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const DAY_MS = 86_400_000;

interface Range {
  start: string;
  end: string;
}

interface SpendPeriod {
  total_amount: number;
  cloud_provider: Record<string, number>;
  cost_type: Record<string, number>;
}

interface Spend {
  current_period: SpendPeriod;
  previous_period: SpendPeriod;
  comparison: { percent_change: number | null };
}

/** The page's "This Month" and "Last Month" (UTC, spec 1 §9). */
function thisMonth(now: Date): Range {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { start: new Date(start).toISOString(), end: new Date(today + DAY_MS - 1).toISOString() };
}

function lastMonth(now: Date): Range {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1;
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}

/** USD without decimals, as the dashboard shows amounts (spec 1 §9). */
function usd(amount: number): string {
  const text = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(amount);
  return text === '-$0' ? '$0' : text;
}

function percent(value: number): string {
  return `${(Math.round(value * 10) / 10).toFixed(1)}%`;
}

async function postSpend(request: APIRequestContext, token: string, range: Range): Promise<Spend> {
  const res = await request.post('/v2/cost/spend', {
    headers: { Authorization: `Bearer ${token}` },
    data: { start_time: range.start, end_time: range.end, filters: [] },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Spend;
}

function card(page: Page, name: string): Locator {
  return page.getByRole('region', { name });
}

/** The four cards show the numbers of this spend answer. */
async function expectCards(page: Page, spend: Spend) {
  const current = spend.current_period;
  await expect(card(page, 'Total Spend')).toContainText(usd(current.total_amount));
  await expect(card(page, 'Total Spend')).toContainText(`vs ${usd(spend.previous_period.total_amount)} previous period`);

  const credit = current.cost_type.Credit ?? 0;
  const refund = current.cost_type.Refund ?? 0;
  const gross = current.total_amount - credit - refund;
  const credits = card(page, 'Credits Consumption');
  if (gross > 0) {
    await expect(credits).toContainText(percent((-credit / gross) * 100));
    await expect(credits).toContainText(`${usd(-credit)} in credits of ${usd(gross)} spend before credits and refunds`);
  }
  await expect(card(page, 'Refunds Received')).toContainText(usd(-refund));

  const providers = card(page, 'Cloud Providers');
  const withSpend = Object.entries(current.cloud_provider).filter(([, amount]) => Math.abs(amount) >= 0.005);
  expect(withSpend.length, 'the demo tenant has spend in the period').toBeGreaterThan(0);
  const positive = withSpend.reduce((sum, [, amount]) => sum + Math.max(0, amount), 0);
  for (const [provider, amount] of withSpend) {
    const share = amount > 0 ? (amount / positive) * 100 : 0;
    await expect(providers.getByRole('listitem', { name: provider, exact: true })).toContainText(`${usd(amount)} (${percent(share)})`);
  }
}

test('Mission Control shows the spend API numbers and follows the period', async ({ page, request }) => {
  const now = new Date();
  const spendRequests: unknown[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/v2/cost/spend')) spendRequests.push(req.postDataJSON());
  });

  await signInThroughForm(page, DEMO.email, DEMO.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Mission Control' })).toBeVisible();
  await expect(page.getByText('Your cloud spend at a glance')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Period' })).toHaveText('This Month');
  const token = await accessTokenOf(page);

  // This Month: the page asks for the range the spec defines, and shows what the API answers.
  const month = thisMonth(now);
  await expectCards(page, await postSpend(request, token, month));
  expect(spendRequests[0]).toEqual({ start_time: month.start, end_time: month.end, filters: [] });

  // Last Month.
  await page.getByRole('combobox', { name: 'Period' }).click();
  await page.getByRole('option', { name: 'Last Month' }).click();
  const previous = lastMonth(now);
  await expect.poll(() => spendRequests.at(-1)).toEqual({ start_time: previous.start, end_time: previous.end, filters: [] });
  const lastMonthSpend = await postSpend(request, token, previous);
  await expectCards(page, lastMonthSpend);
  expect(lastMonthSpend.current_period.total_amount).toBeGreaterThan(0);

  // The largest service category of last month, as the server places the services; the
  // categories together are the month's spend.
  const res = await request.post('/v2/cost/service-categories', {
    headers: { Authorization: `Bearer ${token}` },
    data: { start_time: previous.start, end_time: previous.end, filters: [] },
  });
  expect(res.status(), await res.text()).toBe(200);
  const answer = (await res.json()) as { categories: Array<{ category: string; amount: number }>; currency: string; other_currencies: unknown[] };
  const { categories } = answer;
  // In one currency (no other currency, no display currency), the categories add up to the spend.
  const spendNote = lastMonthSpend as Spend & { currency?: string; converted?: boolean };
  if (answer.other_currencies.length === 0 && !spendNote.converted && (spendNote.currency ?? 'USD') === answer.currency) {
    const categoriesTotal = categories.reduce((sum, category) => sum + category.amount, 0);
    expect(Math.round(categoriesTotal * 100)).toBe(Math.round(lastMonthSpend.current_period.total_amount * 100));
  }
  const top = [...categories].sort((a, b) => b.amount - a.amount)[0];
  const section = page.getByRole('region', { name: 'Cost by Service Category' });
  await expect(section.getByRole('listitem', { name: top.category, exact: true })).toContainText(usd(top.amount));

  // The budget overview counts the demo tenant's budgets as GET /v1/budgets answers them.
  const budgetsRes = await request.get('/v1/budgets', { headers: { Authorization: `Bearer ${token}` } });
  expect(budgetsRes.status()).toBe(200);
  const budgets = (await budgetsRes.json()) as Array<{ name: string }>;
  expect(budgets.length).toBeGreaterThan(0);
  const overview = page.getByRole('region', { name: 'Budget Overview' });
  await expect(overview.getByRole('listitem', { name: `${budgets.length} Total` })).toBeVisible();
});
