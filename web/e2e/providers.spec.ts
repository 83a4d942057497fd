// Journey: a new tenant loads one FOCUS 1.2 file holding AWS, Microsoft, Oracle and Datadog
// (a SaaS provider) costs, and every screen shows the four providers with the file's totals:
// the upload summary, Mission Control's Cloud Providers card and service categories, Advanced
// Cost grouped by provider, and the filter panel's provider options.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PASSWORD, apiSignUp, chooseFromUserMenu, expect, signInThroughForm, test, uniqueEmail } from './fixtures';

const FIXTURE = fileURLToPath(new URL('./fixtures-data/focus-1.2-four-providers.csv', import.meta.url));

// The file's totals, by construction (see crates/server/tests/api/providers.rs): three days of
// one month, billed = effective = list, USD.
const PROVIDERS = [
  { name: 'Oracle', billed: 175.24, rows: 3 },
  { name: 'AWS', billed: 154.85, rows: 3 },
  { name: 'Azure', billed: 125.45, rows: 2 },
  { name: 'Datadog', billed: 34.11, rows: 2 },
];
const TOTAL = 489.65;
// FOCUS ServiceCategory first: Lambda's "Compute" narrowed to Serverless by its name.
const CATEGORIES = [
  { name: 'Database', amount: 145.44 },
  { name: 'Compute', amount: 260.6 },
  { name: 'Storage', amount: 45.4 },
  { name: 'Serverless', amount: 4.1 },
  { name: 'Operations', amount: 34.11 },
];

const pad = (n: number) => String(n).padStart(2, '0');

/** The file moved from October 2026 to last month, so that "Last Month" shows it whole. */
function fileForLastMonth(now: Date): Buffer {
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const lastMonth = `${last.getUTCFullYear()}-${pad(last.getUTCMonth() + 1)}`;
  const thisMonth = `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}`;
  const text = readFileSync(FIXTURE, 'utf8').replaceAll('2026-11-01', `${thisMonth}-01`).replaceAll('2026-10-', `${lastMonth}-`);
  return Buffer.from(text, 'utf8');
}

const usd = (amount: number, digits: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
const share = (amount: number) => `${(Math.round((amount / TOTAL) * 1000) / 10).toFixed(1)}%`;

test('a FOCUS file with four providers shows four providers with its totals everywhere', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('providers');
  await apiSignUp(request, { name: 'Paula Providers', email, password: PASSWORD });
  await signInThroughForm(page, email, PASSWORD);

  // Upload on the Billing Data page.
  await chooseFromUserMenu(page, 'Billing Data');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing Data' })).toBeVisible();
  await page.getByLabel('Choose files').setInputFiles({ name: 'focus-1.2-four-providers.csv', mimeType: 'text/csv', buffer: fileForLastMonth(new Date()) });
  await page.getByRole('button', { name: 'Upload' }).click();
  const summary = page.getByRole('status', { name: 'Upload result' });
  await expect(summary).toContainText('Billing data loaded', { timeout: 30_000 });
  await expect(summary).toContainText('10 rows loaded from 1 file');
  const totals = summary.getByRole('list', { name: 'Totals' });
  for (const provider of PROVIDERS) {
    await expect(totals).toContainText(`${provider.name}: billed ${usd(provider.billed, 2)}`);
  }

  // Mission Control, last month: four providers, largest first, with their shares.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Mission Control' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Period' }).click();
  await page.getByRole('option', { name: 'Last Month' }).click();
  const total = page.getByRole('region', { name: 'Total Spend' });
  await expect(total).toContainText(usd(TOTAL, 0));
  const providers = page.getByRole('region', { name: 'Cloud Providers' }).getByRole('listitem');
  await expect(providers).toHaveCount(4);
  for (const [index, provider] of PROVIDERS.entries()) {
    await expect(providers.nth(index)).toHaveAttribute('aria-label', provider.name);
    await expect(providers.nth(index)).toContainText(`${usd(provider.billed, 0)} (${share(provider.billed)})`);
  }
  const categories = page.getByRole('region', { name: 'Cost by Service Category' }).getByRole('list', { name: 'Service categories' }).getByRole('listitem');
  await expect(categories).toHaveCount(CATEGORIES.length);
  for (const [index, category] of CATEGORIES.entries()) {
    await expect(categories.nth(index)).toHaveAttribute('aria-label', category.name);
    await expect(categories.nth(index)).toContainText(usd(category.amount, 0));
  }

  // Advanced Cost grouped by provider: the file's totals to the cent.
  await page.goto('/cost/advanced?period=lastMonth&view=monthly&group=cloud_provider&include=Usage,regular');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Cost by group' });
  await expect(table.getByRole('columnheader').first()).toHaveText('Cloud Provider');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(PROVIDERS.length);
  for (const [index, provider] of PROVIDERS.entries()) {
    await expect(rows.nth(index).locator('td').first()).toHaveText(provider.name);
    await expect(rows.nth(index)).toContainText(usd(provider.billed, 2));
  }

  // The filter panel offers every provider with data, besides the three clouds.
  await page.getByRole('button', { name: 'Filters' }).click();
  const panel = page.getByRole('dialog', { name: 'Filters' });
  await panel.getByRole('button', { name: 'New Rule' }).click();
  await expect(panel.getByRole('progressbar', { name: 'Loading filter options' })).toHaveCount(0);
  await panel.getByRole('combobox', { name: 'Cloud Provider' }).click();
  await expect(page.getByRole('option')).toHaveText(['AWS', 'GCP', 'Azure', 'Datadog', 'Oracle']);

  // Choosing Oracle filters the page to Oracle's costs.
  await page.getByRole('option', { name: 'Oracle', exact: true }).click();
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(panel).toBeHidden();
  await expect(page).toHaveURL(/filters=Oracle(&|$)/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(usd(175.24, 2));
});
