// Journey: a fresh tenant loads a FOCUS file with costs in USD and in EUR. Mission Control shows
// the USD costs and says that the EUR ones are not included, with their amount. The owner sets
// the display currency to USD and uploads exchange rates on the Currency settings page; Mission
// Control then shows the converted total, equal to the one computed here from the files, and
// says that it was converted.
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { PASSWORD, accessTokenOf, apiSignUp, expect, signInThroughForm, test, uniqueEmail } from './fixtures';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures-data/${name}`, import.meta.url));
// October 2026: AWS in USD 100.00 (Oct 3) + 20.40 (Oct 10); Microsoft in EUR 40.00 (Oct 5) + 10.00 (Oct 20).
const BILLING = fixture('focus-1.2-e2e-usd-eur.csv');
// EUR→USD 1.10 from Oct 1 and 1.20 from Oct 15.
const RATES = fixture('exchange-rates-eur-usd.csv');

const USD_ROWS = [100.0, 20.4];
const EUR_ROWS = [
  { day: '2026-10-05', amount: 40.0 },
  { day: '2026-10-20', amount: 10.0 },
];
const EUR_TO_USD = [
  { from: '2026-10-01', rate: 1.1 },
  { from: '2026-10-15', rate: 1.2 },
];

const cents = (amount: number) => Math.round(amount * 100);
const usdTotal = USD_ROWS.reduce((sum, a) => sum + cents(a), 0) / 100; // 120.40
const eurTotal = EUR_ROWS.reduce((sum, r) => sum + cents(r.amount), 0) / 100; // 50.00
/** Each EUR row at the latest rate on or before its day: 40 × 1.10 + 10 × 1.20 = 56.00. */
const eurInUsd =
  EUR_ROWS.reduce((sum, row) => {
    const rate = EUR_TO_USD.filter((r) => r.from <= row.day).at(-1)!.rate;
    return sum + Math.round(row.amount * rate * 100);
  }, 0) / 100;
const convertedTotal = (cents(usdTotal) + cents(eurInUsd)) / 100; // 176.40

/** Whole US dollars, as the Mission Control cards show them. */
function usd(amount: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(amount);
}

const october = { start: '2026-10-01T00:00:00.000Z', end: '2026-10-31T23:59:59.999Z' };

async function openUserMenuItem(page: Page, item: string) {
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Mission Control on October 2026 (its period is kept in localStorage, spec 1 §9). */
async function openMissionControlOnOctober(page: Page) {
  await page.evaluate(() => {
    window.localStorage.setItem('mission_control_time_range_preset', JSON.stringify('custom'));
    window.localStorage.setItem('mission_control_custom_start', JSON.stringify('2026-10-01'));
    window.localStorage.setItem('mission_control_custom_end', JSON.stringify('2026-10-31'));
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Mission Control' })).toBeVisible();
}

test('costs in two currencies: left out and said so, then converted with uploaded rates', async ({ page, request }) => {
  expect(convertedTotal).toBe(176.4);
  const email = uniqueEmail('currency');
  await apiSignUp(request, { name: 'Cora Currency', email, password: PASSWORD });
  await signInThroughForm(page, email, PASSWORD);

  // Load the billing file on the Billing Data page.
  await openUserMenuItem(page, 'Billing Data');
  await page.getByLabel('Choose files').setInputFiles(BILLING);
  await page.getByRole('button', { name: 'Upload' }).click();
  const summary = page.getByRole('status', { name: 'Upload result' });
  await expect(summary).toContainText('Billing data loaded', { timeout: 30_000 });
  await expect(summary).toContainText('4 rows loaded from 1 file');

  // Without a display currency: USD (the main currency) only, and the EUR amount left out.
  await openMissionControlOnOctober(page);
  const total = page.getByRole('region', { name: 'Total Spend' });
  await expect(total).toContainText(usd(usdTotal));
  await expect(page.getByTestId('currency-notice')).toContainText(
    `Costs in EUR (${eurTotal.toFixed(2)}) are not included: choose a display currency and upload exchange rates to combine currencies`,
  );
  const token = await accessTokenOf(page);
  const spendBefore = await request.post('/v2/cost/spend', {
    headers: { Authorization: `Bearer ${token}` },
    data: { start_time: october.start, end_time: october.end, filters: [] },
  });
  expect(spendBefore.status()).toBe(200);
  const before = await spendBefore.json();
  expect(before.currency).toBe('USD');
  expect(cents(before.current_period.total_amount)).toBe(cents(usdTotal));
  expect(before.otherCurrencies).toEqual([{ currency: 'EUR', amount: eurTotal }]);

  // The Currency settings: both currencies of the data; display USD; upload the rates.
  await page.getByRole('link', { name: 'Currency settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Currency' })).toBeVisible();
  const currencies = page.getByRole('table', { name: 'Currencies of your data' });
  await expect(currencies.getByRole('row').nth(1)).toHaveText('USD$120.40');
  await expect(currencies.getByRole('row').nth(2)).toHaveText('EUR€50.00');

  await page.getByRole('combobox', { name: 'Display currency' }).click();
  await page.getByRole('option', { name: 'USD', exact: true }).click();
  await expect(page.getByText('Amounts are now shown in USD.')).toBeVisible();

  await page.getByLabel('Exchange rates file').setInputFiles(RATES);
  await page.getByRole('button', { name: 'Upload rates' }).click();
  await expect(page.getByText('Exchange rates uploaded.')).toBeVisible();
  await expect(page.getByText('2 rates from 1 October 2026 to 15 October 2026').first()).toBeVisible();
  const rates = page.getByRole('table', { name: 'Exchange rates' });
  await expect(rates.getByRole('row')).toHaveCount(3);
  await expect(rates.getByRole('row').nth(1)).toContainText('2026-10-15EURUSD1.2');

  // Mission Control now converts the EUR costs and says so.
  await openMissionControlOnOctober(page);
  await expect(total).toContainText(usd(convertedTotal));
  const notice = page.getByTestId('currency-notice');
  await expect(notice).toContainText('Converted to USD with your exchange rates');
  await expect(notice).not.toContainText('are not included');
  const spendAfter = await request.post('/v2/cost/spend', {
    headers: { Authorization: `Bearer ${token}` },
    data: { start_time: october.start, end_time: october.end, filters: [] },
  });
  const after = await spendAfter.json();
  expect(after.converted).toBe(true);
  expect(after.otherCurrencies).toEqual([]);
  expect(cents(after.current_period.total_amount)).toBe(cents(convertedTotal));
});
