// Journey: an invited person opens the one-time link, joins as a plain user, and cannot invite.
import { accessTokenOf, apiSignUp, chooseFromUserMenu, expect, PASSWORD, test, uniqueEmail } from './fixtures';

test('the invited user accepts the link, signs in, and may not invite anyone', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const ownerEmail = uniqueEmail('team-owner');
  const inviteeEmail = uniqueEmail('team-member');
  const owner = await apiSignUp(request, { name: 'Tessa Teamlead', email: ownerEmail, password: PASSWORD });
  const invited = await request.post('/v1/users/invite', {
    headers: { Authorization: `Bearer ${owner.access_token}` },
    data: { email: inviteeEmail, role: 'User' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { invite_url: inviteUrl } = (await invited.json()) as { invite_url: string };
  // The link carries the server's public URL; the test server runs on a random port.
  const invitePath = new URL(inviteUrl).pathname;
  expect(invitePath).toMatch(/^\/invite\/[A-Za-z0-9_-]+$/);

  // The invitee opens the link (not signed in).
  await page.goto(invitePath);
  const form = page.getByRole('form', { name: 'Accept invitation' });
  await expect(page.getByRole('heading', { name: /^Join .+ on Costscope$/ })).toBeVisible();
  await expect(form.getByLabel('Email')).toHaveValue(inviteeEmail);
  await form.getByLabel('Name').fill('Ivan Invitee');
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Accept invitation' }).click();

  // Signed in as the new team member, in the owner's tenant (still no cloud accounts: welcome page).
  await expect(page.getByRole('heading', { name: 'Welcome to Costscope, Ivan' })).toBeVisible();
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await expect(page.getByRole('menu').getByText(inviteeEmail)).toBeVisible();
  await page.getByRole('menuitem', { name: 'User Management' }).click();

  // A plain user sees the team but cannot invite.
  const table = page.getByRole('table', { name: 'Team members' });
  await expect(table.getByRole('row').filter({ hasText: ownerEmail })).toContainText('Owner');
  const me = table.getByRole('row').filter({ hasText: inviteeEmail });
  await expect(me).toContainText('Active');
  await expect(me).toContainText('User');
  await expect(page.getByRole('button', { name: 'Invite User' })).toBeDisabled();

  // ...and the server refuses the call anyway, with this user's own access token.
  const token = await accessTokenOf(page);
  const refused = await page.request.post(`${baseURL}/v1/users/invite`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { email: uniqueEmail('sneaky'), role: 'User' },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe(
    'Only owners and admins can manage users',
  );

  // The owner now sees the member as active with the role user.
  const team = await request.get('/v1/users', { headers: { Authorization: `Bearer ${owner.access_token}` } });
  expect(team.status()).toBe(200);
  const member = ((await team.json()) as { email: string; role: string; status: string; name: string }[]).find(
    (u) => u.email === inviteeEmail,
  );
  expect(member).toMatchObject({ name: 'Ivan Invitee', role: 'user', status: 'active' });

  // The link was spent: opened again by someone signed out, it is refused.
  const stranger = await browser.newContext({ baseURL });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(invitePath);
  await expect(strangerPage.getByText('This invitation link is invalid or has already been used')).toBeVisible();
  await stranger.close();

  // Sign out, then sign in again with the password chosen on the invitation page: back on the
  // page where they signed out.
  await chooseFromUserMenu(page, 'Sign Out');
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(inviteeEmail);
  await signIn.getByLabel('Password').fill(PASSWORD);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invite User' })).toBeDisabled();
});
