// Journey: the demo owner loads a FOCUS 1.2 export from the Billing Data settings page, sees what
// was loaded and the load in the history; a file with a non-numeric cost is refused with the
// server's message naming the file, row and column, and nothing of it is stored.
import { fileURLToPath } from 'node:url';
import { chooseFromUserMenu, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures-data/${name}`, import.meta.url));
// 4 rows, two services (EC2 50.00 + 30.25, S3 25.10 + 18.10), billing account 999900001111, October 2026.
const GOOD = fixture('focus-1.2-e2e.csv');
// The same file with BilledCost "12,5x" in its second row.
const BAD = fixture('focus-1.2-e2e-bad-cost.csv');

test('the owner uploads a FOCUS export, sees the totals and the history; a bad file is refused', async ({ page }) => {
  await signInThroughForm(page, DEMO.email, DEMO.password);
  await chooseFromUserMenu(page, 'Billing Data');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing Data' })).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/billing-data$/);

  // A good file, format chosen explicitly.
  await page.getByLabel('Choose files').setInputFiles(GOOD);
  await expect(page.getByRole('list', { name: 'Chosen files' }).getByText('focus-1.2-e2e.csv')).toBeVisible();
  await page.getByRole('combobox', { name: 'Format' }).click();
  await page.getByRole('option', { name: 'FOCUS 1.0–1.2' }).click();
  await page.getByRole('button', { name: 'Upload' }).click();

  const summary = page.getByRole('status', { name: 'Upload result' });
  await expect(summary).toContainText('Billing data loaded', { timeout: 30_000 });
  await expect(summary).toContainText('4 rows loaded from 1 file');
  await expect(summary.getByRole('list', { name: 'Billing periods' })).toHaveText('AWS · 999900001111 · 2026-10');
  await expect(summary.getByRole('list', { name: 'Totals' })).toHaveText(
    'AWS: billed $123.45 · effective $123.45 · list $134.00 (4 rows)',
  );

  const history = page.getByRole('table', { name: 'Load history' });
  const loaded = history.getByRole('row').filter({ hasText: 'focus-1.2-e2e.csv' });
  await expect(loaded).toHaveCount(1);
  await expect(loaded).toContainText('Succeeded');
  await expect(loaded).toContainText('FOCUS 1.0–1.2');
  await expect(loaded).toContainText('$123.45');
  await expect(loaded).toContainText('Demo');

  // A bad file with the format detected by the server.
  await page.getByLabel('Choose files').setInputFiles(BAD);
  await page.getByRole('combobox', { name: 'Format' }).click();
  await page.getByRole('option', { name: 'Auto-detect' }).click();
  await page.getByRole('button', { name: 'Upload' }).click();

  const failure = page.getByRole('alert', { name: 'Upload result' });
  await expect(failure).toContainText('The billing data was not loaded', { timeout: 30_000 });
  const message = /focus-1\.2-e2e-bad-cost\.csv: row 2, column "BilledCost": "12,5x" is not a number/;
  await expect(failure).toContainText(message);

  const refused = history.getByRole('row').filter({ hasText: 'focus-1.2-e2e-bad-cost.csv' });
  await expect(refused).toContainText('Failed');
  await expect(refused).toContainText(message);
  // The refused upload stored nothing: the good load is still the only success for these files.
  await expect(loaded).toContainText('Succeeded');

  // A file with its header and no rows is refused as such, not as "empty".
  await page.getByRole('button', { name: 'Remove focus-1.2-e2e-bad-cost.csv' }).click();
  await page.getByLabel('Choose files').setInputFiles({
    name: 'header-only.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('BilledCost,BillingAccountId,BillingCurrency,ChargePeriodStart,ProviderName\n'),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(failure).toContainText('header-only.csv: the file has a header but no rows', { timeout: 30_000 });

  // An archive is not even sent: the page says to extract it.
  await page
    .getByLabel('Choose files')
    .setInputFiles({ name: 'export.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\u0003\u0004') });
  await expect(page.getByText(/Not added \(archives are not supported; extract the export .*\): export\.zip/)).toBeVisible();
});
