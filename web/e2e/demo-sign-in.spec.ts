// Journey: someone who ran `make run` signs in with the demo credentials the server printed.
import { chooseFromUserMenu, expect, serverLog, serverUrl, signInThroughForm, test } from './fixtures';

function printedDemoCredentials(): { email: string; password: string } {
  const log = serverLog();
  expect(log).toContain(`Costscope is running at ${serverUrl()}`);
  const match = /Demo sign-in: (\S+@\S+) \/ (\S+)/.exec(log);
  expect(match, `the server prints "Demo sign-in: <email> / <password>"; log:\n${log.slice(-2000)}`).not.toBeNull();
  return { email: match![1], password: match![2] };
}

test('the demo sign-in printed by the server works', async ({ page }) => {
  const demo = printedDemoCredentials();
  expect(demo).toEqual({ email: 'demo@costscope.dev', password: 'costscope-demo' });

  await signInThroughForm(page, demo.email, demo.password);
  // The demo tenant has accounts (seen in its billing data), so `/` is the dashboard, not the
  // welcome page (spec 1 §2.1).
  await expect(page.getByRole('heading', { name: 'Mission Control', level: 1 })).toBeVisible();
  // `serve --demo` renews the demo trial to 30 days, so no trial-ends-soon modal is in the way.
  await expect(page.getByRole('dialog', { name: 'Free trial ends soon!' })).toHaveCount(0);
  await page.goto('/welcome');
  await expect(page.getByRole('heading', { name: /^Welcome to Costscope, Demo$/ })).toBeVisible();
  await expect(page.getByText(/Your free trial ends in (30|29) days/)).toBeVisible();

  await page.getByRole('button', { name: 'Open user menu' }).click();
  await expect(page.getByRole('menu').getByText(demo.email)).toBeVisible();
  await page.keyboard.press('Escape');

  // The demo user can open User Management and sees the demo team.
  await chooseFromUserMenu(page, 'User Management');
  const table = page.getByRole('table', { name: 'Team members' });
  await expect(table.getByRole('row').filter({ hasText: demo.email })).toBeVisible();
});
