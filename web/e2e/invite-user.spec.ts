// Journey: an owner invites a colleague from Settings → User Management.
import { apiSignUp, chooseFromUserMenu, expect, PASSWORD, signInThroughForm, test, uniqueEmail } from './fixtures';

test('an owner invites a user, sees the success notice, the pending row and the link', async ({
  page,
  request,
}) => {
  const owner = uniqueEmail('owner');
  const invitee = uniqueEmail('invitee');
  await apiSignUp(request, { name: 'Olga Owner', email: owner, password: PASSWORD });
  await signInThroughForm(page, owner, PASSWORD);

  await chooseFromUserMenu(page, 'User Management');
  await expect(page).toHaveURL(/\/settings\/users$/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();

  await page.getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Email').fill(invitee);
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'User', exact: true }).click();
  await expect(dialog.getByRole('combobox', { name: 'Role' })).toHaveText('User');
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();

  // The success notice (it vanishes after 3 s, so it is checked first).
  await expect(page.getByText(`Invitation sent to ${invitee}`)).toBeVisible();
  await expect(dialog).toBeHidden();

  // The invited user is listed as pending, with the role User.
  const row = page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: invitee });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Pending');
  await expect(row).toContainText('User');

  // No SMTP in the test server: the one-time link is shown for the admin to share.
  const link = page.getByRole('textbox', { name: 'Invitation link' });
  await expect(link).toHaveValue(/\/invite\/[A-Za-z0-9_-]{16,}$/);

  // The success notice goes away by itself; the list still shows the invitation after a reload.
  await expect(page.getByText(`Invitation sent to ${invitee}`)).toBeHidden({ timeout: 8_000 });
  await page.reload();
  await expect(
    page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: invitee }),
  ).toContainText('Pending');
});

test('inviting an e-mail that already belongs to a user shows the conflict message', async ({
  page,
  request,
}) => {
  const owner = uniqueEmail('owner2');
  const someoneElse = uniqueEmail('existing');
  await apiSignUp(request, { name: 'Omar Owner', email: owner, password: PASSWORD });
  await apiSignUp(request, { name: 'Existing Person', email: someoneElse, password: PASSWORD });
  await signInThroughForm(page, owner, PASSWORD);

  await chooseFromUserMenu(page, 'User Management');
  await page.getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });
  await dialog.getByLabel('Email').fill(someoneElse);
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(`User ${someoneElse} already exists`);
});
