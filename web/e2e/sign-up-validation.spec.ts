// Journey: the sign-up form tells the visitor what is wrong before and after asking the server.
import { apiSignUp, expect, test, uniqueEmail, PASSWORD } from './fixtures';

test('the sign-up form shows the required-field messages', async ({ page }) => {
  await page.goto('/signup');
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByRole('button', { name: 'Create Account' }).click();

  await expect(form.getByText('Name is required')).toBeVisible();
  await expect(form.getByText('Email is required')).toBeVisible();
  await expect(form.getByText('Password is required')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test('the sign-up form rejects a malformed e-mail and a short password', async ({ page }) => {
  await page.goto('/signup');
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('Name').fill('Grace Hopper');
  await form.getByLabel('Email').fill('grace-at-example.com');
  await form.getByLabel('Password').fill('short');
  await form.getByRole('button', { name: 'Create Account' }).click();

  await expect(form.getByText('Enter a valid email address')).toBeVisible();
  await expect(form.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(form.getByText('Name is required')).toHaveCount(0);
});

test('signing up with an e-mail that already has an account shows the server message', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('taken');
  await apiSignUp(request, { name: 'First Owner', email, password: PASSWORD });

  await page.goto('/signup');
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('Name').fill('Second Owner');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();

  await expect(form.getByRole('alert')).toHaveText(`User ${email} already exists`);
  await expect(page.getByRole('button', { name: 'Open user menu' })).toHaveCount(0);
});
