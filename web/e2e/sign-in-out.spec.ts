// Journey: a user signs out from the user menu, mistypes the password, then signs in again.
import {
  apiSignUp,
  chooseFromUserMenu,
  expect,
  PASSWORD,
  SESSION_STORAGE_KEY,
  signInThroughForm,
  test,
  uniqueEmail,
} from './fixtures';

test('sign out, a wrong password, and signing in again', async ({ page, request }) => {
  const email = uniqueEmail('signin');
  await apiSignUp(request, { name: 'Alan Turing', email, password: PASSWORD });

  await signInThroughForm(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome to Costscope, Alan' })).toBeVisible();
  const session = await page.evaluate((key) => window.localStorage.getItem(key), SESSION_STORAGE_KEY);
  const refreshToken = (JSON.parse(session ?? '{}') as { refreshToken?: string }).refreshToken;
  expect(refreshToken).toBeTruthy();

  // Sign out from the user menu: back on the sign-in page, and it stays so after a reload.
  await chooseFromUserMenu(page, 'Sign Out');
  await expect(page.getByRole('heading', { name: 'Sign in to Costscope' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open user menu' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Costscope' })).toBeVisible();
  // Signing out revoked the refresh token on the server.
  const refreshed = await request.post('/v1/auth/refresh', { data: { refresh_token: refreshToken } });
  expect(refreshed.status()).toBe(401);

  // A wrong password is refused with the one message that does not reveal which part was wrong.
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill('not-the-password');
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(form.getByRole('alert')).toHaveText('Incorrect email or password');
  await expect(page.getByRole('button', { name: 'Open user menu' })).toHaveCount(0);

  // The right password signs in.
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to Costscope, Alan' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open user menu' })).toBeVisible();
});

test('an unknown e-mail gets the same message as a wrong password', async ({ page }) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(uniqueEmail('nobody'));
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(form.getByRole('alert')).toHaveText('Incorrect email or password');
});
