// The journey of issue 14 ("Done when"), against moto: a new owner connects an AWS account, loads a
// FOCUS file naming two of its resources, presses "Discover now" and finds the tagged instance in
// the inventory with its cost; the tag is edited in moto, a second discovery gives the instance two
// snapshots in the side panel's history slider; Tags Search → Show Untagged finds the untagged
// volume; a standard tag shows its violations; Cost Saving shows the unattached volume with its
// monthly saving. The server runs discovery on demand only, in us-east-1 (e2e/cloud-peers.ts).
import {
  PASSWORD,
  accessTokenOf,
  apiSignUp,
  chooseFromUserMenu,
  expect,
  signInThroughForm,
  test,
  uniqueEmail,
} from './fixtures';
import { MOTO_ACCOUNT_ID } from './cloud-peers';
import type { APIRequestContext, Page } from '@playwright/test';

// Registration, two discoveries and the pages in between.
test.setTimeout(300_000);

const REGION = 'us-east-1';
const INSTANCE_COST = 12.34;
const VOLUME_COST = 8.5;
const SUCCESS = 'Triggered on-demand discovery, please wait for few mins to reflect the changes.';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: global-setup.ts starts the cloud peers (e2e/cloud-peers.ts)`);
  return value;
}

// ---- moto through plain HTTP (query protocol for EC2 and IAM, path-style S3); no signatures ----
function motoAuth(service: string): string {
  return `AWS4-HMAC-SHA256 Credential=testing/20261123/${REGION}/${service}/aws4_request, SignedHeaders=host, Signature=0`;
}

async function motoQuery(service: 'ec2' | 'iam', params: Record<string, string>): Promise<string> {
  const version = service === 'ec2' ? '2016-11-15' : '2010-05-08';
  const res = await fetch(env('COSTSCOPE_E2E_MOTO_URL'), {
    method: 'POST',
    headers: { Authorization: motoAuth(service), 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: new URLSearchParams({ Version: version, ...params }).toString(),
  });
  const text = await res.text();
  if (!res.ok && !text.includes('EntityAlreadyExists')) throw new Error(`moto ${params.Action}: ${res.status} ${text}`);
  return text;
}

function xmlValue(xml: string, tag: string): string {
  const value = new RegExp(`<${tag}>([^<]+)</${tag}>`).exec(xml)?.[1];
  if (!value) throw new Error(`no <${tag}> in moto's answer: ${xml.slice(0, 400)}`);
  return value;
}

async function motoCreateBucket(bucket: string): Promise<void> {
  const res = await fetch(`${env('COSTSCOPE_E2E_MOTO_URL')}/${bucket}`, { method: 'PUT', headers: { Authorization: motoAuth('s3') } });
  const text = await res.text();
  expect(res.ok || text.includes('BucketAlreadyOwnedByYou'), `moto CreateBucket ${bucket}: ${text}`).toBe(true);
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
  await motoQuery('iam', { Action: 'CreateRole', RoleName: name, AssumeRolePolicyDocument: trust });
}

// ---- a small FOCUS 1.2 file whose ResourceId rows name the instance and the volume ----
const FOCUS_HEADER =
  'BillingAccountId,BillingAccountName,BillingAccountType,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,' +
  'ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ChargeClass,ChargeDescription,ChargeFrequency,ProviderName,' +
  'PublisherName,InvoiceIssuerName,ServiceName,ServiceCategory,ServiceSubcategory,RegionId,RegionName,SubAccountId,' +
  'SubAccountName,SubAccountType,ResourceId,ResourceName,ResourceType,SkuId,SkuPriceId,PricingCategory,' +
  'PricingQuantity,PricingUnit,ListUnitPrice,ContractedUnitPrice,ConsumedQuantity,ConsumedUnit,BilledCost,' +
  'EffectiveCost,ListCost,ContractedCost,Tags';

function isoDay(date: Date): string {
  return `${date.toISOString().slice(0, 10)}T00:00:00Z`;
}

/** Yesterday's charges (inside the inventory's and Cost Saving's default last 30 days). */
function focusFile(instanceId: string, volumeId: string): Buffer {
  const today = new Date();
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 1));
  const end = new Date(start.getTime() + 86_400_000);
  const periodStart = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1));
  const periodEnd = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const row = (resourceId: string, service: string, category: string, description: string, cost: number, sku: string) =>
    [
      MOTO_ACCOUNT_ID, 'Inventory E2E', 'Billing Account', 'USD', isoDay(periodStart), isoDay(periodEnd),
      isoDay(start), isoDay(end), 'Usage', '', description, 'Usage-Based', 'AWS', 'AWS', '"Amazon Web Services, Inc."',
      service, category, category, REGION, 'US East (N. Virginia)', MOTO_ACCOUNT_ID, 'Moto', 'Account',
      resourceId, resourceId, category, sku, `${sku}-PRICE`, 'Standard', '24', 'Hours', '', '', '24', 'Hours',
      cost.toFixed(2), cost.toFixed(2), cost.toFixed(2), cost.toFixed(2), '',
    ].join(',');
  return Buffer.from(
    [
      FOCUS_HEADER,
      row(instanceId, 'Amazon Elastic Compute Cloud', 'Compute', 't3.micro running hours', INSTANCE_COST, 'SKU-I'),
      row(volumeId, 'Amazon Elastic Compute Cloud', 'Storage', 'gp2 volume storage', VOLUME_COST, 'SKU-V'),
      '',
    ].join('\n'),
  );
}

// ---- the discovery runs (GET /v1/job), to know when a run the button queued has finished ----
interface Run {
  id: number;
  state: string;
  summary: unknown;
}

async function runs(request: APIRequestContext, token: string): Promise<Run[]> {
  const res = await request.get('/v1/job', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Run[];
}

async function discoverNow(page: Page, request: APIRequestContext, token: string, finishedBefore: number): Promise<void> {
  await page.getByRole('button', { name: 'Discover now' }).click();
  await expect(page.getByText(SUCCESS)).toBeVisible();
  await expect
    .poll(
      async () => {
        const finished = (await runs(request, token)).filter((run) => !['queued', 'running'].includes(run.state));
        return finished.length;
      },
      { timeout: 120_000, intervals: [1_000, 2_000] },
    )
    .toBe(finishedBefore + 1);
  const latest = (await runs(request, token)).find((run) => !['queued', 'running'].includes(run.state));
  expect(latest?.state, `the discovery run: ${JSON.stringify(latest)}`).toMatch(/^(succeeded|partial)$/);
}

function money(amount: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);
}

test('an owner discovers an AWS account: inventory with cost, history, untagged, standard tags, savings', async ({
  page,
  request,
}) => {
  // What runs in the account, made in moto: a tagged instance, an unattached gp2 volume, a bucket.
  const image = xmlValue(await motoQuery('ec2', { Action: 'DescribeImages', 'Owner.1': 'amazon' }), 'imageId');
  const instanceId = xmlValue(
    await motoQuery('ec2', {
      Action: 'RunInstances',
      ImageId: image,
      MinCount: '1',
      MaxCount: '1',
      InstanceType: 't3.micro',
      'TagSpecification.1.ResourceType': 'instance',
      'TagSpecification.1.Tag.1.Key': 'team',
      'TagSpecification.1.Tag.1.Value': 'web',
    }),
    'instanceId',
  );
  const volumeId = xmlValue(
    await motoQuery('ec2', { Action: 'CreateVolume', AvailabilityZone: `${REGION}a`, Size: '10', VolumeType: 'gp2' }),
    'volumeId',
  );
  await motoCreateBucket(`inventory-e2e-${Date.now()}`);

  // A new owner.
  const email = uniqueEmail('inventory');
  await apiSignUp(request, { name: 'Inventory Owner', email, password: PASSWORD });
  await signInThroughForm(page, email, PASSWORD);
  const token = await accessTokenOf(page);

  // Connects the account as cloud-accounts.spec.ts does: the role (with the tenant's external id)
  // and the export bucket in moto, then the Connect AWS dialog until State 6.
  const template = await request.get('/v1/aws/onboarding-template?format=focus-1.2', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(template.status(), await template.text()).toBe(200);
  const externalId = /ExternalId:[\s\S]*?Default: '([^']+)'/.exec(await template.text())?.[1];
  expect(externalId, 'the template names the external id').toBeTruthy();
  await motoCreateRole('CostscopeReadOnly', externalId as string);
  await motoCreateBucket(`costscope-exports-${MOTO_ACCOUNT_ID}`);

  await page.goto('/settings/integrations');
  await page.getByRole('button', { name: 'Connect AWS' }).click();
  await page.getByLabel('AWS Account ID', { exact: true }).fill(MOTO_ACCOUNT_ID);
  await page.getByLabel('Account Name', { exact: true }).fill('Moto Inventory');
  await page.getByRole('radio', { name: 'FOCUS 1.2' }).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByLabel('External ID', { exact: true })).toHaveValue(externalId as string);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByText('AWS account connected')).toBeVisible({ timeout: 60_000 });

  // Uploads a FOCUS file whose rows name the instance and the volume.
  await chooseFromUserMenu(page, 'Billing Data');
  await page.getByLabel('Choose files').setInputFiles({
    name: 'inventory-focus.csv',
    mimeType: 'text/csv',
    buffer: focusFile(instanceId, volumeId),
  });
  await page.getByRole('combobox', { name: 'Format' }).click();
  await page.getByRole('option', { name: 'FOCUS 1.0–1.2' }).click();
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('status', { name: 'Upload result' })).toContainText('2 rows loaded from 1 file', {
    timeout: 30_000,
  });

  // Discover now, then the tagged instance is in the inventory with its cost.
  await page.goto('/inventory');
  await discoverNow(page, request, token, 0);
  await page.reload();
  // The account has more resources than a page shows: the instance is looked up by its id.
  const findInstance = async () => {
    await page.getByRole('textbox', { name: 'Resource ID' }).fill(instanceId);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };
  await findInstance();
  const table = page.getByRole('table', { name: 'Resources' });
  const instanceRow = table.getByRole('row').filter({ hasText: instanceId });
  await expect(instanceRow).toBeVisible({ timeout: 30_000 });
  await expect(instanceRow).toContainText('AWS::EC2::Instance');
  await expect(instanceRow).toContainText(MOTO_ACCOUNT_ID);
  await expect(instanceRow).toContainText('Live');
  await expect(instanceRow).toContainText(money(INSTANCE_COST));

  // The tag edited in moto; a second discovery; two snapshots in the side panel's history.
  await motoQuery('ec2', { Action: 'CreateTags', 'ResourceId.1': instanceId, 'Tag.1.Key': 'team', 'Tag.1.Value': 'platform' });
  // The button stays disabled 2 s after a call.
  await expect(page.getByRole('button', { name: 'Discover now' })).toBeEnabled();
  await discoverNow(page, request, token, 1);
  await page.reload();
  await findInstance();
  await table.getByRole('row').filter({ hasText: instanceId }).click();
  const panel = page.getByRole('region', { name: 'Resource details' });
  await expect(panel.getByText('History (2 snapshots)')).toBeVisible();
  await expect(panel.getByRole('slider')).toBeVisible();
  const tags = panel.getByRole('table', { name: 'Tags' });
  await expect(tags.getByRole('row').filter({ hasText: 'team' })).toContainText('platform');
  // The older snapshot still has the first value.
  await panel.getByRole('slider').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(tags.getByRole('row').filter({ hasText: 'team' })).toContainText('web');
  await panel.getByRole('button', { name: 'Close' }).click();

  // Tags → Tags Search → Show Untagged: the volume is there, the tagged instance is not.
  await page.goto('/tags');
  await page.getByRole('tab', { name: 'Tags Search' }).click();
  await page.getByRole('checkbox', { name: 'Show Untagged' }).check();
  const untagged = page.getByRole('table', { name: 'Resources' });
  await expect(untagged.getByRole('row').filter({ hasText: volumeId })).toBeVisible({ timeout: 30_000 });
  await expect(untagged.getByRole('row').filter({ hasText: instanceId })).toHaveCount(0);

  // A standard tag `team` with the allowed value `web`: the instance's `platform` is invalid and
  // the volume misses it.
  await page.getByRole('button', { name: 'Standard Tags', exact: true }).click();
  const manager = page.getByRole('dialog', { name: 'Standard Tags Manager' });
  await manager.getByRole('button', { name: 'Add New Tag' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add New Tag' });
  await addDialog.getByLabel('Tag Key').fill('team');
  await addDialog.getByLabel('Tag Values').fill('web');
  await addDialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addDialog).toBeHidden();
  await expect(manager.getByRole('table', { name: 'Standard tags' }).getByRole('row').filter({ hasText: 'team' })).toContainText('web');
  await manager.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('tab', { name: 'Overview' }).click();
  const violations = page.getByRole('table', { name: 'Standard tag violations' });
  await expect(violations.getByRole('row').filter({ hasText: instanceId })).toContainText('Invalid value “platform”', {
    timeout: 30_000,
  });
  await expect(violations.getByRole('row').filter({ hasText: instanceId })).toContainText(money(INSTANCE_COST));
  await expect(violations.getByRole('row').filter({ hasText: volumeId })).toContainText('Missing');

  // Cost Saving (a tab of the newCostDashboard layout): the unattached volume with its saving.
  await page.route('**/v1/auth/config', async (route) => {
    const response = await route.fetch();
    const config = (await response.json()) as { features: Record<string, boolean> };
    await route.fulfill({ response, json: { ...config, features: { ...config.features, newCostDashboard: true } } });
  });
  await page.goto('/cost/saving');
  await expect(page.getByRole('tab', { name: 'Cost Saving', selected: true })).toBeVisible();
  const savings = await request.get('/v1/savings', { headers: { Authorization: `Bearer ${await accessTokenOf(page)}` } });
  expect(savings.status(), await savings.text()).toBe(200);
  const answer = (await savings.json()) as {
    recommendations: { kind: string; monthly_saving: number | null; resource: { resource_id: string } }[];
  };
  const unattached = answer.recommendations.find((r) => r.kind === 'unattached_volume' && r.resource.resource_id === volumeId);
  expect(unattached, `an unattached-volume recommendation for ${volumeId}: ${JSON.stringify(answer)}`).toBeTruthy();
  expect(unattached?.monthly_saving ?? 0).toBeGreaterThan(0);
  const recommendations = page.getByRole('table', { name: 'Savings recommendations' });
  const volumeRow = recommendations.getByRole('row').filter({ hasText: volumeId }).filter({ hasText: 'Unattached volume' });
  await expect(volumeRow).toBeVisible({ timeout: 30_000 });
  await expect(volumeRow).toContainText(money(unattached?.monthly_saving as number));
});
