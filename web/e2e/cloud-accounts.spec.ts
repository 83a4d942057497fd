// Journeys of issue 13 ("Done when"): a new owner connects an AWS account, a GCP project and an Azure
// export in the browser against the local peers global-setup.ts started (e2e/cloud-peers.ts), sees
// the registration succeed, presses "Sync now", and the export's costs appear in cost analysis with
// totals equal to the files, and in the load history with their source. Secrets (the GCP key, the
// SAS token) never come back in an API answer nor appear in the server log.
//
// moto checks neither signatures nor trust policies nor external ids: the role is created with the
// tenant's external id (read from the template Costscope serves) but moto would accept any.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  PASSWORD,
  accessTokenOf,
  apiSignUp,
  chooseFromUserMenu,
  expect,
  serverLog,
  signInThroughForm,
  test,
  uniqueEmail,
} from './fixtures';
import { MOTO_ACCOUNT_ID } from './cloud-peers';
import type { APIRequestContext, Page } from '@playwright/test';

// A registration check polls every 10 s and a sync is re-read every 5 s: allow a few rounds.
test.setTimeout(240_000);

const FOCUS_FILE = fileURLToPath(new URL('./fixtures-data/focus-1.2-e2e.csv', import.meta.url));
// focus-1.2-e2e.csv: 4 rows, October 2026, billed $123.45.
const AWS_TOTAL = '$123.45';
// cloud-accounts-gcp-rows.json: 3 rows, invoice month 2026-10, cost 40.00 + 25.50 + 10.00.
const GCP_TOTAL = '$75.50';
const OCTOBER = '/cost/advanced?period=custom&from=2026-10-01&to=2026-10-31';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: global-setup.ts starts the cloud peers (e2e/cloud-peers.ts)`);
  return value;
}

async function newOwner(page: Page, request: APIRequestContext, who: string): Promise<string> {
  const email = uniqueEmail(who);
  await apiSignUp(request, { name: `Cloud ${who}`, email, password: PASSWORD });
  await signInThroughForm(page, email, PASSWORD);
  return accessTokenOf(page);
}

// ---- moto through plain HTTP (path-style S3, query-protocol IAM); moto checks no signature ----
function motoAuth(service: string): string {
  return `AWS4-HMAC-SHA256 Credential=testing/20261123/us-east-1/${service}/aws4_request, SignedHeaders=host, Signature=0`;
}

async function motoS3(method: 'PUT' | 'GET', path: string, body?: Uint8Array | string): Promise<Response> {
  const res = await fetch(`${env('COSTSCOPE_E2E_MOTO_URL')}/${path}`, {
    method,
    headers: { Authorization: motoAuth('s3') },
    body: typeof body === 'string' || body === undefined ? body : new Blob([new Uint8Array(body)]),
  });
  expect(res.status, `moto S3 ${method} /${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return res;
}

async function motoCreateRole(name: string, externalId: string): Promise<void> {
  const trust = JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${MOTO_ACCOUNT_ID}:root` },
        Action: 'sts:AssumeRole',
        Condition: { StringEquals: { 'sts:ExternalId': externalId } },
      },
    ],
  });
  const res = await fetch(env('COSTSCOPE_E2E_MOTO_URL'), {
    method: 'POST',
    headers: { Authorization: motoAuth('iam'), 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: new URLSearchParams({
      Action: 'CreateRole',
      Version: '2010-05-08',
      RoleName: name,
      AssumeRolePolicyDocument: trust,
    }).toString(),
  });
  const text = await res.text();
  // A second run against the same moto finds the role there already.
  expect(res.ok || text.includes('EntityAlreadyExists'), `moto CreateRole: ${text}`).toBe(true);
}

/** Delivers October 2026 of an AWS Data Export as AWS lays it out: data files, then the manifest. */
async function deliverDataExport(bucket: string, prefix: string, exportName: string, file: Uint8Array): Promise<void> {
  const root = `${prefix}/${exportName}`;
  const dataKey = `${root}/data/BILLING_PERIOD=2026-10/${exportName}-00001.csv.gz`;
  await motoS3('PUT', `${bucket}/${dataKey}`, file);
  const manifest = {
    version: '1.0',
    exportArn: `arn:aws:bcm-data-exports:us-east-1:${MOTO_ACCOUNT_ID}:export/${exportName}-e2e`,
    exportName,
    executionId: `e2e-${Date.now()}`,
    billingPeriod: '2026-10',
    bucket,
    dataFiles: [`s3://${bucket}/${dataKey}`],
    columns: [
      { name: 'BilledCost', type: 'decimal' },
      { name: 'ChargePeriodStart', type: 'timestamp' },
    ],
  };
  await motoS3(
    'PUT',
    `${bucket}/${root}/metadata/BILLING_PERIOD=2026-10/${exportName}-Manifest.json`,
    JSON.stringify(manifest),
  );
}

/** Waits until the row's sync reached Succeeded (the page re-reads every 5 s while one runs). */
async function syncNow(page: Page, accountId: string): Promise<void> {
  const row = page.getByTestId(`row-${accountId}`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: `Sync now ${accountId}` }).click();
  // Succeeded or Failed, whichever comes first; a failure shows its error in the row.
  await expect(row.getByText(/^(Succeeded|Failed)$/).first()).toBeVisible({ timeout: 120_000 });
  await expect(row.getByText('Succeeded').first(), `the sync failed: ${await row.innerText()}`).toBeVisible();
}

async function expectOctoberTotal(page: Page, total: string): Promise<void> {
  await page.goto(OCTOBER);
  await expect(page.getByTestId('total-cost')).toHaveText(total, { timeout: 30_000 });
}

async function expectLoadInHistory(page: Page, source: RegExp, total: string): Promise<void> {
  await chooseFromUserMenu(page, 'Billing Data');
  const history = page.getByRole('table', { name: 'Load history' });
  const load = history.getByRole('row').filter({ hasText: source });
  await expect(load.first()).toContainText('Succeeded');
  await expect(load.first()).toContainText(total);
}

test('an owner connects an AWS account, the check succeeds, Sync now loads the export', async ({ page, request }) => {
  const token = await newOwner(page, request, 'aws');

  // The template Costscope serves carries the tenant's external id as the ExternalId default.
  const template = await request.get('/v1/aws/onboarding-template?format=focus-1.2', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(template.status(), await template.text()).toBe(200);
  const yaml = await template.text();
  expect(yaml).toContain('AWS::BCMDataExports::Export');
  const externalId = /ExternalId:[\s\S]*?Default: '([^']+)'/.exec(yaml)?.[1];
  expect(externalId, 'the template names the external id').toBeTruthy();

  // What the template would create, made in moto: the role, the bucket and a FOCUS delivery.
  const bucket = `costscope-exports-${MOTO_ACCOUNT_ID}`;
  await motoCreateRole('CostscopeReadOnly', externalId as string);
  await motoS3('PUT', bucket);
  await deliverDataExport(bucket, 'costscope', 'costscope-focus', gzipSync(readFileSync(FOCUS_FILE)));

  await page.goto('/settings/integrations');
  await expect(page.getByRole('heading', { level: 1, name: 'Cloud Accounts' })).toBeVisible();
  await page.getByRole('button', { name: 'Connect AWS' }).click();
  await page.getByLabel('AWS Account ID', { exact: true }).fill(MOTO_ACCOUNT_ID);
  await page.getByLabel('Account Name', { exact: true }).fill('Moto Production');
  await page.getByRole('radio', { name: 'FOCUS 1.2' }).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();

  await expect(page.getByLabel('External ID', { exact: true })).toHaveValue(externalId as string);
  // Command 1 and Command 2 of the registration answer (StackSetCmds).
  await expect(page.locator('pre').filter({ hasText: 'aws cloudformation create-stack-set' })).toBeVisible();
  await expect(page.locator('pre').filter({ hasText: `--accounts ${MOTO_ACCOUNT_ID}` })).toBeVisible();
  await page.getByRole('button', { name: 'Next', exact: true }).click();

  // State 6: the role was assumed with the external id and the export location listed.
  await expect(page.getByText('AWS account connected')).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(/\/settings\/integrations/, { timeout: 15_000 });
  await syncNow(page, MOTO_ACCOUNT_ID);

  await expectOctoberTotal(page, AWS_TOTAL);
  await expectLoadInHistory(page, new RegExp(`AWS sync · ${MOTO_ACCOUNT_ID}`), AWS_TOTAL);
});

test('an owner connects a GCP project with a key file; Sync now reads the BigQuery export', async ({ page, request }) => {
  const token = await newOwner(page, request, 'gcp');
  const keyFile = env('COSTSCOPE_E2E_GCP_KEY_FILE');
  const table = env('COSTSCOPE_E2E_GCP_TABLE');
  const key = JSON.parse(readFileSync(keyFile, 'utf8')) as { project_id: string; private_key: string; private_key_id: string };
  const projectId = key.project_id;

  await page.goto('/settings/integrations');
  await page.getByRole('button', { name: 'Connect GCP' }).click();
  await page.getByLabel('Project ID', { exact: true }).fill(projectId);
  await page.getByLabel('Billing Export Table', { exact: true }).fill(table);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByLabel('Service account key file', { exact: true }).setInputFiles(keyFile);
  await page.getByRole('checkbox', { name: 'I have set up the Cloud Billing export to BigQuery' }).check();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText('GCP project connected')).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(/\/settings\/integrations/, { timeout: 15_000 });

  await syncNow(page, projectId);
  await expectOctoberTotal(page, GCP_TOTAL);
  await expectLoadInHistory(page, new RegExp(`GCP sync · ${projectId}`), GCP_TOTAL);

  // The key never comes back, and never reaches the log.
  const listed = await request.get('/v1/gcp/account', { headers: { Authorization: `Bearer ${token}` } });
  expect(listed.status()).toBe(200);
  const answer = await listed.text();
  expect(answer).toContain(projectId);
  const privateKeyBody = key.private_key.split('\n')[1];
  for (const secret of [privateKeyBody, key.private_key_id]) {
    expect(answer).not.toContain(secret);
    expect(serverLog()).not.toContain(secret);
  }
});

// ---- Azurite: an account SAS signed with the emulator's well-known key ----
const AZURITE_ACCOUNT = 'devstoreaccount1';
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const AZURE_VERSION = '2021-08-06';

function accountSas(permissions: string): string {
  const expiry = '2030-01-01T00:00:00Z';
  const fields = { sp: permissions, ss: 'b', srt: 'sco', st: '', se: expiry, sip: '', spr: 'https,http', sv: AZURE_VERSION };
  const toSign = [AZURITE_ACCOUNT, fields.sp, fields.ss, fields.srt, fields.st, fields.se, fields.sip, fields.spr, fields.sv, '', ''].join('\n');
  const sig = createHmac('sha256', Buffer.from(AZURITE_KEY, 'base64')).update(toSign, 'utf8').digest('base64');
  return new URLSearchParams({ sv: fields.sv, ss: fields.ss, srt: fields.srt, sp: fields.sp, se: fields.se, spr: fields.spr, sig }).toString();
}

async function azurite(method: 'PUT', path: string, sas: string, body?: string, blob = false): Promise<void> {
  const headers: Record<string, string> = { 'x-ms-version': AZURE_VERSION };
  if (blob) headers['x-ms-blob-type'] = 'BlockBlob';
  const res = await fetch(`${env('COSTSCOPE_E2E_AZURITE_URL')}/${path}${path.includes('?') ? '&' : '?'}${sas}`, {
    method,
    headers,
    body,
  });
  expect(res.status, `Azurite ${method} /${path}: ${await res.text()}`).toBeLessThan(300);
}

const AZURE_HEADER = readFileSync(FOCUS_FILE, 'utf8').split('\n')[0];
function azureRow(day: string, nextDay: string, service: string, cost: string): string {
  // The FOCUS 1.2 columns of focus-1.2-e2e.csv, for a Microsoft charge.
  return [
    'e2e-azure-billing', 'E2E Azure Billing', 'Billing Profile', 'USD', '2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z',
    `2026-10-${day}T00:00:00Z`, `2026-10-${nextDay}T00:00:00Z`, 'Usage', '', service, 'Usage-Based',
    'Microsoft', 'Microsoft', 'Microsoft', service, 'Compute', 'Virtual Machines', 'westeurope', 'West Europe',
    '0f8fad5b-d9cb-469f-a165-70867728950e', 'E2E Subscription', 'Subscription', `/subscriptions/e2e/vm-${day}`, `vm-${day}`,
    'Virtual Machine', `SKU-${day}`, `SKUPRICE-${day}`, 'Standard', '10', 'Hours', '', '', '10', 'Hours', cost, cost, cost, cost, '{}',
  ].join(',');
}

test('an owner connects an Azure export with a SAS token; Sync now loads the newest run', async ({ page, request }) => {
  const token = await newOwner(page, request, 'azure');
  const subscription = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const container = `cost-exports-${Date.now().toString(36)}`;
  const writer = accountSas('rwdlacup');
  await azurite('PUT', `${container}?restype=container`, writer);

  const csv = [AZURE_HEADER, azureRow('03', '04', 'Virtual Machines', '60.00'), azureRow('04', '05', 'Virtual Machines', '14.25'), ''].join('\n');
  const run = `costscope/focus-export/20261001-20261031/${Date.now().toString(36)}`;
  const dataBlob = `${run}/part_0_0001.csv`;
  await azurite('PUT', `${container}/${dataBlob}`, writer, csv, true);
  const manifest = {
    manifestVersion: '2024-04-01',
    blobs: [{ blobName: dataBlob, byteCount: Buffer.byteLength(csv), dataRowCount: 2 }],
    runInfo: {
      runId: run.split('/').pop(),
      submittedTime: new Date().toISOString(),
      startDate: '2026-10-01T00:00:00',
      endDate: '2026-10-31T00:00:00',
    },
  };
  await azurite('PUT', `${container}/${run}/manifest.json`, writer, JSON.stringify(manifest), true);

  const reader = accountSas('rl');
  await page.goto('/settings/integrations');
  await page.getByRole('button', { name: 'Connect Azure' }).click();
  await page.getByLabel('Subscription ID', { exact: true }).fill(subscription);
  await page.getByLabel('Name', { exact: true }).fill('E2E Azure');
  await page.getByLabel('Storage Account', { exact: true }).fill(AZURITE_ACCOUNT);
  await page.getByLabel('Container', { exact: true }).fill(container);
  await page.getByLabel('Directory (optional)', { exact: true }).fill('costscope');
  await page.getByRole('radio', { name: 'SAS token' }).check();
  await page.getByLabel('SAS Token', { exact: true }).fill(reader);
  await page.getByLabel('Blob Endpoint (optional)', { exact: true }).fill(env('COSTSCOPE_E2E_AZURITE_URL'));
  await page.getByRole('button', { name: 'Connect Azure' }).click();
  await expect(page.getByText('Azure export connected')).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(/\/settings\/integrations/, { timeout: 15_000 });

  await syncNow(page, subscription);
  await expectOctoberTotal(page, '$74.25');
  await expectLoadInHistory(page, new RegExp(`Azure sync · ${subscription}`), '$74.25');

  // The SAS token's signature never comes back, and never reaches the log.
  const signature = new URLSearchParams(reader).get('sig') as string;
  const listed = await request.get('/v1/azure/account', { headers: { Authorization: `Bearer ${token}` } });
  expect(listed.status()).toBe(200);
  const answer = await listed.text();
  expect(answer).toContain(container);
  for (const secret of [signature, encodeURIComponent(signature)]) {
    expect(answer).not.toContain(secret);
    expect(serverLog()).not.toContain(secret);
  }
});
