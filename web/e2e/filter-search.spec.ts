// Issue 16 (docs/ANALYST-FLOW.md "Filter from anywhere", "Honest context"): signed in as the
// demo user, a person types "eu-west" in the filter panel's Search all values on Advanced Cost,
// picks Region · eu-west-1, and the page shows the filter as a chip and the total the cost API
// gives for the same request with that region filter. Every page says the figures are generated.
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const REGION = 'eu-west-1';
const DEMO_NOTICE = 'Demo data: every figure in this workspace is generated, not a real bill.';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

interface AggrAnswer {
  summary: { accrued_cost: number };
  warnings: string[];
}

test('Search all values: "eu-west" → Region · eu-west-1 filters Advanced Cost as the API does; the demo notice shows', async ({ page }) => {
  test.setTimeout(120_000);
  // The page's own cost requests: their period and charge types are asked again directly below.
  const sent: Array<Record<string, unknown>> = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/v2/cost/aggr') sent.push(req.postDataJSON() as Record<string, unknown>);
  });

  await signInThroughForm(page, DEMO.email, DEMO.password);
  const notice = page.getByRole('note').filter({ hasText: DEMO_NOTICE });
  await expect(notice).toBeVisible();
  await expect(notice).toHaveText(DEMO_NOTICE);

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Advanced Cost' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeVisible();
  // Every signed-in page: this one too.
  await expect(notice).toBeVisible();
  await expect(page.getByTestId('total-cost')).toBeVisible({ timeout: 20_000 });

  await page.getByRole('button', { name: 'Filters', exact: true }).click();
  const panel = page.getByRole('dialog', { name: 'Filters' });
  const search = panel.getByRole('combobox', { name: 'Search all values' });
  await search.click();
  await search.pressSequentially('eu-west');
  const matches = page.getByRole('listbox');
  // Options of every dimension are listed grouped, at most 8 per dimension.
  await expect(matches.getByRole('option', { name: `Region · ${REGION}` })).toBeVisible({ timeout: 15_000 });
  const listed = await matches.getByRole('option').allTextContents();
  console.log('matches for "eu-west":', JSON.stringify(listed));
  expect(listed.filter((text) => text.startsWith('Region · ')).length).toBeLessThanOrEqual(8);
  expect(listed.every((text) => text.toLowerCase().includes('eu-west'))).toBe(true);
  const before = sent.length;
  await matches.getByRole('option', { name: `Region · ${REGION}` }).click();

  // Applied at once: the panel closes, the rule is in the URL and on a chip.
  await expect(panel).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`filters=aws\\(region=${REGION}\\)`));
  await expect(page.getByRole('button', { name: 'Filters (2 applied)' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Applied filters' }).getByText(`Region equals ${REGION}`)).toBeVisible();

  // The same request asked of the API: the page's period and charge types, that region filter.
  const filters = [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['aws'] }], regions: [{ operator: 'equals', values: [REGION] }] }];
  await expect.poll(() => sent.slice(before).some((body) => JSON.stringify(body.filters) === JSON.stringify(filters)), { timeout: 20_000 }).toBe(true);
  const asked = sent.slice(before).filter((body) => body.interval === undefined && JSON.stringify(body.filters) === JSON.stringify(filters)).at(-1) ?? sent.at(-1)!;
  const request = { start_time: asked.start_time, end_time: asked.end_time, cost_type: asked.cost_type, filters, group_by: 'none' };
  const token = await accessTokenOf(page);
  const res = await page.request.post('/v2/cost/aggr', { data: request, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  const answer = (await res.json()) as AggrAnswer;
  const unfiltered = await page.request.post('/v2/cost/aggr', { data: { ...request, filters: [] }, headers: { Authorization: `Bearer ${token}` } });
  const all = (await unfiltered.json()) as AggrAnswer;
  console.log('request', JSON.stringify(request));
  console.log('eu-west-1 total', answer.summary.accrued_cost, 'of', all.summary.accrued_cost, 'unfiltered');
  expect(answer.summary.accrued_cost).toBeGreaterThan(0);
  expect(answer.summary.accrued_cost).toBeLessThan(all.summary.accrued_cost);
  await expect(page.getByRole('progressbar', { name: 'Updating cost data' })).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('total-cost')).toHaveText(usd.format(answer.summary.accrued_cost), { timeout: 20_000 });
  console.log('total on screen', await page.getByTestId('total-cost').textContent());
});
