// Journey: a visitor creates an account and lands on the welcome page of their new tenant.
import { expect, test, uniqueEmail, PASSWORD } from './fixtures';

test('a new visitor signs up and lands on the welcome page with an active trial', async ({ page }) => {
  const email = uniqueEmail('signup');

  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Create your Costscope account' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Create account' });
  await expect(form.getByPlaceholder('Enter name')).toBeVisible();
  await form.getByLabel('Name').fill('Ada Lovelace');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();

  // The new tenant has no cloud accounts, so home is the welcome page.
  await expect(page.getByRole('heading', { name: 'Welcome to Costscope, Ada' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(/Your free trial ends in (30|29) days/)).toBeVisible();
  await expect(page.getByText('Your free trial has ended')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Connect Accounts' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Manage Users' })).toBeEnabled();
  for (const card of ['Cost Visibility', 'Cost Optimization', 'Resource Tagging', 'Budget Management']) {
    await expect(page.getByText(card, { exact: true })).toBeVisible();
  }

  // The header shows the new user's initials; the user menu their name and e-mail.
  await page.getByRole('button', { name: 'Open user menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('Ada Lovelace')).toBeVisible();
  await expect(menu.getByText(email)).toBeVisible();
  await page.keyboard.press('Escape');

  // The session survives a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome to Costscope, Ada' })).toBeVisible();

  // Step 2 leads to User Management, where the new owner is the only team member.
  await page.getByRole('button', { name: 'Manage Users' }).click();
  await expect(page).toHaveURL(/\/settings\/users$/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  const breadcrumb = page.getByRole('navigation', { name: 'breadcrumb' });
  await expect(breadcrumb).toContainText('Welcome');
  await expect(breadcrumb).toContainText('User Management');
  const table = page.getByRole('table', { name: 'Team members' });
  await expect(table.getByRole('row')).toHaveCount(2); // header + the owner
  await expect(table.getByRole('row').filter({ hasText: email })).toContainText('Owner');
});
