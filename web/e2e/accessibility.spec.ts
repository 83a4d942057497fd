// Accessibility (issue 16): every page of the app passes axe-core (WCAG 2 A and AA rules) with no
// serious or critical violation. Signed out: the sign-in and sign-up pages. Signed in as the demo
// user: every entry of the main navigation (read from the rendered menu, so a new entry is checked
// without editing this file), every settings page of the user menu and the connect wizards, the
// main detail pages (a budget with its tabs, the budget wizard, an anomaly, the welcome page), and
// a few opened overlays (the user menu, Advanced Cost's filter panel, its Group By and Include
// lists, Inventory's Region multi-select).
// Each violation is printed as `page | rule id (impact) | target | help` and the test fails on any.
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { accessTokenOf, expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const DAY_MS = 86_400_000;
const TAGS = ['wcag2a', 'wcag2aa'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** The settings pages the user menu opens, and the connect wizards of Cloud Accounts and Teams. */
const SETTINGS_PAGES = [
  '/settings/integrations',
  '/settings/users',
  '/settings/notifications',
  '/settings/digest',
  '/settings/billing-data',
  '/settings/currency',
  '/settings/aws-connect',
  '/settings/gcp-connect',
  '/settings/azure-connect',
  '/settings/ms-teams-connect',
];

/** Waits until the page shows its content: a level-1 heading (or a named form) and no spinner. */
async function settle(page: Page, ready: 'heading' | 'form' = 'heading') {
  if (ready === 'heading') await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
  else await expect(page.getByRole('form').first()).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Indeterminate progress (MUI spinners and bars without a value) means data is still loading.
  await expect(page.locator('[role="progressbar"]:not([aria-valuenow])')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('.MuiSkeleton-root')).toHaveCount(0, { timeout: 20_000 });
}

/** Runs axe-core on the page as it is now; returns one line per serious or critical violation. */
async function audit(page: Page, where: string): Promise<string[]> {
  // A menu or dialog fades in: measured mid-transition its text is lighter than it will be
  // (a flaky color-contrast finding), so wait for every finite animation to end first.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const lines: string[] = [];
  for (const violation of results.violations) {
    if (!FAILING_IMPACTS.has(violation.impact ?? '')) continue;
    for (const node of violation.nodes) {
      const why = [...node.any, ...node.all, ...node.none].map((check) => check.message).join('; ');
      lines.push(`${where} | ${violation.id} (${violation.impact}) | ${node.target.join(' ')} | ${violation.help} | ${why} | ${node.html.slice(0, 160)}`);
    }
  }
  console.log(`axe ${where}: ${results.violations.length} rule(s) violated, ${lines.length} serious/critical node(s); ${results.passes.length} rules passed`);
  for (const line of lines) console.log(`  ${line}`);
  return lines;
}

async function visit(page: Page, path: string, found: string[]) {
  await page.goto(path);
  await settle(page);
  found.push(...(await audit(page, path)));
}

async function apiGet<T>(request: APIRequestContext, token: string, path: string, params?: Record<string, string>): Promise<T> {
  const res = await request.get(path, { headers: { Authorization: `Bearer ${token}` }, params });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

const day = (time: number) => new Date(time).toISOString().slice(0, 10);

test('the sign-in and sign-up pages have no serious or critical axe-core violation', async ({ page }) => {
  const found: string[] = [];
  await page.goto('/');
  await settle(page, 'form');
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  found.push(...(await audit(page, '/ (sign in)')));

  await page.goto('/signup');
  await settle(page, 'form');
  const signUp = page.getByRole('form', { name: 'Create account' });
  await expect(signUp).toBeVisible();
  found.push(...(await audit(page, '/signup (sign up)')));
  // Its messages for the empty required fields.
  await signUp.getByRole('button', { name: 'Create Account' }).click();
  await expect(signUp.getByText('Name is required')).toBeVisible();
  found.push(...(await audit(page, '/signup (required-field messages)')));

  // The sign-in form's error state (wrong password): the message and the fields marked invalid.
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(DEMO.email);
  await form.getByLabel('Password').fill('not-the-password');
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(form.getByRole('alert')).toHaveText('Incorrect email or password');
  found.push(...(await audit(page, '/ (sign in, wrong password)')));

  expect(found, found.join('\n')).toEqual([]);
});

test('every page of the signed-in app has no serious or critical axe-core violation', async ({ page, request }) => {
  test.setTimeout(420_000);
  const found: string[] = [];
  await signInThroughForm(page, DEMO.email, DEMO.password);
  await settle(page);
  found.push(...(await audit(page, '/ (home)')));

  // The user menu, open.
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  found.push(...(await audit(page, '/ (user menu open)')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();

  // Every entry of the main navigation, as the menu shows it to the demo user.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Budgets' })).toBeVisible();
  const navPaths = [...new Set(await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '')))];
  expect(navPaths.length).toBeGreaterThan(5);
  for (const path of navPaths) await visit(page, path, found);

  for (const path of SETTINGS_PAGES) await visit(page, path, found);

  // Detail pages: the welcome page, a demo budget with its tabs, the budget wizard, an anomaly.
  await visit(page, '/welcome', found);
  const token = await accessTokenOf(page);
  const budgets = await apiGet<{ id: number }[]>(request, token, '/v1/budgets');
  expect(budgets.length, 'the demo tenant has budgets').toBeGreaterThan(0);
  const budgetId = budgets[0].id;
  for (const path of [`/budgets/view/${budgetId}`, `/budgets/view/${budgetId}/details`, `/budgets/view/${budgetId}/resources`]) {
    await visit(page, path, found);
  }
  await visit(page, '/budgets/create', found);

  // The detection job runs after the demo load at start-up: wait for its findings.
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  let anomalyId: number | undefined;
  await expect
    .poll(
      async () => {
        const list = await apiGet<{ anomalies: { id: number }[] }>(request, token, '/v1/anomalies', {
          start: day(today - 89 * DAY_MS),
          end: day(today),
        });
        anomalyId = list.anomalies[0]?.id;
        return anomalyId;
      },
      { timeout: 60_000, message: 'the demo data has an anomaly' },
    )
    .toBeDefined();
  await visit(page, `/anomalies/${anomalyId}`, found);

  // Overlays of Advanced Cost: the Group By list and the filter panel with a rule being written.
  await visit(page, '/cost/advanced', found);
  await page.getByRole('combobox', { name: 'Group By' }).click();
  await expect(page.getByRole('listbox')).toBeVisible();
  found.push(...(await audit(page, '/cost/advanced (Group By open)')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  // Include: its actions, presets and charge types (tick-box pictures, no nested checkbox).
  await page.getByRole('combobox', { name: 'Include' }).click();
  await expect(page.getByRole('listbox').getByRole('option', { name: 'Usage only' })).toBeVisible();
  found.push(...(await audit(page, '/cost/advanced (Include open)')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await page.getByRole('button', { name: /^Filters/ }).click();
  const panel = page.getByRole('dialog', { name: 'Filters' });
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'New Rule' }).click();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  found.push(...(await audit(page, '/cost/advanced (filter panel open)')));

  // Inventory's multi-select filter, open (its options: All and each region, with a tick-box picture).
  await visit(page, '/inventory', found);
  await page.getByRole('combobox', { name: 'Region' }).click();
  await expect(page.getByRole('listbox').getByRole('option', { name: 'All' })).toBeVisible();
  found.push(...(await audit(page, '/inventory (Region filter open)')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();

  expect(found, found.join('\n')).toEqual([]);
});
