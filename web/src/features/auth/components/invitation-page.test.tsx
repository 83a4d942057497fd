import { screen } from '@testing-library/react';
import { getSession } from '@/api/session';
import { appRoutes, makeAuth, makeConfig, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp } from '@/test/render';

const info = { email: 'new@example.com', customer_name: 'Acme', invited_by: 'Olivia Owner' };

describe('invitation page', () => {
  it('shows the invitation and accepts it with a name and password', async () => {
    const me = makeUser({ id: 5, role: 'user', name: 'Nina New', email: 'new@example.com' });
    const { callsTo } = mockApi({
      ...appRoutes({ me }),
      'GET /v1/auth/invitations/tok123': { body: info },
      'POST /v1/auth/invitations/tok123/accept': { body: makeAuth(me) },
    });
    const { user } = renderApp('/invite/tok123');
    expect(await screen.findByRole('heading', { name: 'Join Acme on Costscope' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('new@example.com');
    await user.type(screen.getByLabelText('Name'), 'Nina New');
    await user.type(screen.getByLabelText('Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('button', { name: 'Connect Accounts' })).toBeInTheDocument();
    expect(callsTo('POST', '/v1/auth/invitations/tok123/accept')[0].body).toEqual({ name: 'Nina New', password: 'password123' });
    expect(getSession()?.user.email).toBe('new@example.com');
  });

  it('applies the user-name rules before accepting', async () => {
    mockApi({ 'GET /v1/auth/config': { body: makeConfig() }, 'GET /v1/auth/invitations/tok123': { body: info } });
    const { user } = renderApp('/invite/tok123');
    await user.type(await screen.findByLabelText('Name'), 'Al');
    await user.type(screen.getByLabelText('Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('Must be at least 4 characters')).toBeInTheDocument();
  });

  it('shows the server message for an invalid link', async () => {
    mockApi({
      'GET /v1/auth/config': { body: makeConfig() },
      'GET /v1/auth/invitations/used': {
        status: 404,
        body: { message: 'This invitation link is invalid or has already been used' },
      },
    });
    renderApp('/invite/used');
    expect(await screen.findByText('This invitation link is invalid or has already been used')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toBeInTheDocument();
  });
});
