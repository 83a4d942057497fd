import { screen, within } from '@testing-library/react';
import { getSession } from '@/api/session';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';

describe('user menu', () => {
  it('shows the initials of the first two words of the name and the settings entries', async () => {
    const me = makeUser({ name: 'grace brewster hopper' });
    signInAs(me);
    mockApi(appRoutes({ me }));
    const { user } = renderApp('/welcome');
    const button = await screen.findByRole('button', { name: 'Open user menu' });
    expect(button).toHaveTextContent('GB');
    await user.click(button);
    const menu = await screen.findByRole('menu');
    await user.click(within(menu).getByRole('menuitem', { name: 'User Management' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/settings/users');

    await user.click(screen.getByRole('button', { name: 'Open user menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Integrations' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Cloud Accounts' })).toBeInTheDocument();
  });

  it('has a Billing Data entry, for every role, that opens /settings/billing-data', async () => {
    const me = makeUser({ role: 'user' });
    signInAs(me);
    mockApi({ ...appRoutes({ me }), 'GET /v1/ingest': { body: [] } });
    const { user } = renderApp('/welcome');
    await user.click(await screen.findByRole('button', { name: 'Open user menu' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Billing Data' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing Data' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/settings/billing-data');
  });

  it('signs out: revokes the refresh token and shows the sign-in page', async () => {
    const me = makeUser();
    signInAs(me);
    const { callsTo } = mockApi(appRoutes({ me }));
    const { user } = renderApp('/welcome');
    await user.click(await screen.findByRole('button', { name: 'Open user menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(callsTo('POST', '/v1/auth/logout')).toHaveLength(1);
    expect(getSession()).toBeNull();
  });

  it('a 401 from the API signs the user out and shows the sign-in page', async () => {
    const me = makeUser();
    signInAs(me);
    mockApi({ ...appRoutes({ me }), 'GET /v1/users': { status: 401, body: { message: 'Authentication required' } } });
    renderApp('/settings/users');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(getSession()).toBeNull();
  });
});
