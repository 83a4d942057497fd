import { act, screen, within } from '@testing-library/react';
import type { User } from '@/api/types';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';

const owner = makeUser({ id: 1, name: 'Olivia Owner', email: 'olivia@example.com', role: 'owner' });
const admin = makeUser({ id: 2, name: 'Adam Admin', email: 'adam@example.com', role: 'admin' });
const plain = makeUser({ id: 3, name: 'Uma User', email: 'uma@example.com', role: 'user' });
const pending = makeUser({ id: 4, name: 'Pat Pending', email: 'pat@example.com', role: 'user', status: 'pending' });
const team = [admin, plain, owner, pending];

function setup(me: User, extra: Record<string, MockReply> = {}, users: User[] = team) {
  signInAs(me);
  const api = mockApi({ ...appRoutes({ me, users }), ...extra });
  const rendered = renderApp('/settings/users');
  return { ...api, ...rendered };
}

async function table() {
  return screen.findByRole('table', { name: 'Team members' });
}

describe('user management page', () => {
  it('lists the team with the owner row on top and pending users marked', async () => {
    setup(owner);
    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
    const rows = within(await table()).getAllByRole('row');
    expect(within(rows[0]).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Name', 'Email', 'Role', 'Status', 'Actions']);
    expect(rows[1]).toHaveTextContent('Olivia Owner');
    expect(rows[1]).toHaveTextContent('Owner');
    expect(within(rows[1]).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[4]).getByText('Pending')).toBeInTheDocument();
  });

  it('gives owners and admins the Invite User button and row actions', async () => {
    setup(admin);
    await table();
    expect(screen.getByRole('button', { name: 'Invite User' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Edit Uma User' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delete Uma User' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delete Adam Admin' })).toBeDisabled();
  });

  it('disables Invite User and the row actions for plain users, except editing their own name', async () => {
    setup(plain);
    await table();
    expect(screen.getByRole('button', { name: 'Invite User' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit Adam Admin' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Adam Admin' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Uma User' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit Uma User' })).toBeEnabled();
  });

  it('shows "Failed to fetch users" when the list cannot be loaded', async () => {
    setup(owner, { 'GET /v1/users': { status: 500, body: { message: 'Internal server error' } } });
    expect(await screen.findByText('Failed to fetch users')).toBeInTheDocument();
  });

  describe('invite', () => {
    it('sends the e-mail and role, confirms, and shows the link to share', async () => {
      const invited = makeUser({ id: 9, name: '', email: 'new@example.com', role: 'admin', status: 'pending' });
      const { user, callsTo } = setup(owner, {
        'POST /v1/users/invite': {
          status: 201,
          body: { user: invited, invite_url: 'http://localhost:8080/invite/abc', email_sent: false },
        },
      });
      await table();
      await user.click(screen.getByRole('button', { name: 'Invite User' }));
      const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
      await user.type(within(dialog).getByLabelText('Email'), 'new@example.com');
      await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
      await user.click(await screen.findByRole('option', { name: 'Admin' }));
      await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));

      expect(await screen.findByText('Invitation sent to new@example.com')).toBeInTheDocument();
      expect(callsTo('POST', '/v1/users/invite')[0].body).toEqual({ email: 'new@example.com', role: 'Admin' });
      expect(screen.getByText('Share this invitation link')).toBeInTheDocument();
      expect(await screen.findByRole('textbox', { name: 'Invitation link' })).toHaveValue('http://localhost:8080/invite/abc');
      expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    });

    it('lets the success notice vanish after 3 s while the link stays', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const invited = makeUser({ id: 9, email: 'new@example.com', role: 'user', status: 'pending' });
      const { user } = setup(owner, {
        'POST /v1/users/invite': { status: 201, body: { user: invited, invite_url: 'http://x/invite/t', email_sent: true } },
      });
      await table();
      await user.click(screen.getByRole('button', { name: 'Invite User' }));
      await user.type(await screen.findByLabelText('Email'), 'new@example.com');
      await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
      expect(await screen.findByText('Invitation sent to new@example.com')).toBeInTheDocument();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(3_100);
      });
      expect(screen.queryByText('Invitation sent to new@example.com')).not.toBeInTheDocument();
      expect(screen.getByText('Share this invitation link')).toBeInTheDocument();
    });

    it('validates the e-mail before sending', async () => {
      const { user, callsTo } = setup(owner);
      await table();
      await user.click(screen.getByRole('button', { name: 'Invite User' }));
      await user.click(await screen.findByRole('button', { name: 'Send Invitation' }));
      expect(await screen.findByText('Email is required')).toBeInTheDocument();
      await user.type(screen.getByLabelText('Email'), 'nope');
      await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
      expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
      expect(callsTo('POST', '/v1/users/invite')).toHaveLength(0);
    });

    it.each([
      [{ status: 409, body: { message: 'User dup@example.com already exists' } }, 'User dup@example.com already exists'],
      [{ status: 409, body: {} }, 'User dup@example.com already exists'],
      [{ status: 500, body: { message: 'Internal server error' } }, 'Failed to send invitation'],
    ])('shows the error of a failed invitation (%j)', async (reply, message) => {
      const { user } = setup(owner, { 'POST /v1/users/invite': reply });
      await table();
      await user.click(screen.getByRole('button', { name: 'Invite User' }));
      await user.type(await screen.findByLabelText('Email'), 'dup@example.com');
      await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Invite User' })).toBeInTheDocument();
    });
  });

  describe('edit', () => {
    async function openEdit(name: string, me: User = owner, extra: Record<string, MockReply> = {}) {
      const rendered = setup(me, extra);
      await table();
      await rendered.user.click(screen.getByRole('button', { name: `Edit ${name}` }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit user' });
      return { ...rendered, dialog };
    }

    it.each([
      ['', 'Username cannot be empty'],
      [' Uma', "Can't start with a space"],
      ['Uma     User', 'Too many consecutive spaces'],
      ['Uma', 'Must be at least 4 characters'],
    ])('rejects the name %j with "%s"', async (name, message) => {
      const { user, dialog, callsTo } = await openEdit('Uma User');
      const field = within(dialog).getByLabelText('Name');
      await user.clear(field);
      if (name) await user.type(field, name);
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText(message)).toBeInTheDocument();
      expect(callsTo('PUT', '/v1/users/3/role')).toHaveLength(0);
    });

    it('says "No changes made" when nothing changed', async () => {
      const { user, dialog, callsTo } = await openEdit('Uma User');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText('No changes made')).toBeInTheDocument();
      expect(callsTo('PUT', '/v1/users/3/role')).toHaveLength(0);
    });

    it('lets an admin change another user\'s name and role', async () => {
      const { user, dialog, callsTo } = await openEdit('Uma User', admin, {
        'PUT /v1/users/3/role': { body: { ...plain, name: 'Uma Updated', role: 'admin' } },
      });
      const field = within(dialog).getByLabelText('Name');
      await user.clear(field);
      await user.type(field, 'Uma Updated');
      await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
      await user.click(await screen.findByRole('option', { name: 'Admin' }));
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('User details updated successfully')).toBeInTheDocument();
      expect(callsTo('PUT', '/v1/users/3/role')[0].body).toEqual({ name: 'Uma Updated', role: 'Admin' });
    });

    it('does not let anyone change their own role', async () => {
      const { dialog } = await openEdit('Adam Admin', admin);
      expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveAttribute('aria-disabled', 'true');
    });

    it('lets a plain user rename themselves only', async () => {
      const { user, dialog, callsTo } = await openEdit('Uma User', plain, {
        'PUT /v1/users/3/role': { body: { ...plain, name: 'Uma Renamed' } },
      });
      expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveAttribute('aria-disabled', 'true');
      const field = within(dialog).getByLabelText('Name');
      await user.clear(field);
      await user.type(field, 'Uma Renamed');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('User details updated successfully')).toBeInTheDocument();
      expect(callsTo('PUT', '/v1/users/3/role')[0].body).toEqual({ name: 'Uma Renamed' });
    });

    it('shows "Failed to update user details" when the server refuses', async () => {
      const { user, dialog } = await openEdit('Uma User', owner, {
        'PUT /v1/users/3/role': { status: 500, body: { message: 'Internal server error' } },
      });
      const field = within(dialog).getByLabelText('Name');
      await user.clear(field);
      await user.type(field, 'Uma Another');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText('Failed to update user details')).toBeInTheDocument();
    });
  });

  describe('delete', () => {
    it('asks for confirmation and deletes', async () => {
      const { user, callsTo } = setup(owner, {
        'DELETE /v1/users/3': { body: { message: 'User deleted successfully' } },
      });
      await table();
      await user.click(screen.getByRole('button', { name: 'Delete Uma User' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
      expect(dialog).toHaveTextContent('uma@example.com');
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
      expect(callsTo('DELETE', '/v1/users/3')).toHaveLength(1);
    });

    it('shows "Failed to delete user" when the server refuses', async () => {
      const { user } = setup(owner, { 'DELETE /v1/users/3': { status: 403, body: { message: 'The account owner cannot be deleted' } } });
      await table();
      await user.click(screen.getByRole('button', { name: 'Delete Uma User' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await within(dialog).findByText('Failed to delete user')).toBeInTheDocument();
    });
  });

  it('explains the roles with a documentation link', async () => {
    const { user } = setup(owner);
    await table();
    await user.click(screen.getByRole('button', { name: 'About roles' }));
    expect(await screen.findByText(/manages users and integrations/i)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Read more about roles in the documentation' })).toHaveAttribute(
      'href',
      'https://docs.costscope.test',
    );
  });
});
