// Journey: a user signs out from the user menu, mistypes the password, then signs in again.
import {
  apiSignUp,
  chooseFromUserMenu,
  expect,
  PASSWORD,
  REFRESH_COOKIE,
  serverUrl,
  signInThroughForm,
  test,
  uniqueEmail,
} from './fixtures';

test('sign out, a wrong password, and signing in again', async ({ page, request, playwright }) => {
  const email = uniqueEmail('signin');
  await apiSignUp(request, { name: 'Alan Turing', email, password: PASSWORD });

  await signInThroughForm(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome to Costscope, Alan' })).toBeVisible();

  // The refresh token is an HttpOnly, Secure, SameSite=Strict cookie for /v1/auth only, which
  // Chromium keeps on plain http://127.0.0.1; page scripts and localStorage never hold a token.
  const cookie = (await page.context().cookies()).find((c) => c.name === REFRESH_COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/v1/auth' });
  expect(await page.evaluate(() => document.cookie)).not.toContain(REFRESH_COOKIE);
  const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
  expect(stored).not.toContain(cookie!.value);
  expect(stored).not.toMatch(/access_?token|eyJ/i);

  // A reload restores the session from the cookie.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome to Costscope, Alan' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open user menu' })).toBeVisible();
  const refreshToken = (await page.context().cookies()).find((c) => c.name === REFRESH_COOKIE)?.value;
  expect(refreshToken).toBeTruthy();

  // Sign out from the user menu: back on the sign-in page, and it stays so after a reload.
  await chooseFromUserMenu(page, 'Sign Out');
  await expect(page.getByRole('heading', { name: 'Sign in to Costscope' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open user menu' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Costscope' })).toBeVisible();
  expect((await page.context().cookies()).find((c) => c.name === REFRESH_COOKIE)).toBeUndefined();
  // Signing out revoked the refresh token on the server.
  // (A client of its own: `request` holds the cookie of the sign-up above.)
  const client = await playwright.request.newContext({ baseURL: serverUrl() });
  const refreshed = await client.post('/v1/auth/refresh', { data: { refresh_token: refreshToken } });
  expect(refreshed.status()).toBe(401);
  await client.dispose();

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
