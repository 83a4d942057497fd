import { screen, waitFor } from '@testing-library/react';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';

const DAY = 86_400_000;

describe('welcome page', () => {
  beforeEach(() => signInAs(makeUser()));

  it('shows the active trial with the days left, both steps and the four feature cards', async () => {
    mockApi(appRoutes({ customer: makeCustomer({ trialEndDate: new Date(Date.now() + 12 * DAY - 60_000).toISOString() }) }));
    renderApp('/welcome');
    expect(await screen.findByText('Your free trial ends in 12 days')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect Accounts' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Manage Users' })).toBeEnabled();
    for (const title of ['Cost Visibility', 'Cost Optimization', 'Resource Tagging', 'Budget Management']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByText(/Owner/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'support@costscope.test' })).toHaveAttribute('href', 'mailto:support@costscope.test');
    expect(screen.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', 'https://docs.costscope.test');
  });

  it('defaults to a 30-day trial when the end date is missing', async () => {
    mockApi(appRoutes({ customer: makeCustomer({ trialEndDate: null as unknown as string }) }));
    renderApp('/welcome');
    expect(await screen.findByText('Your free trial ends in 30 days')).toBeInTheDocument();
  });

  it('disables both steps when the trial has ended', async () => {
    mockApi(appRoutes({ customer: makeCustomer({ trialEndDate: new Date(Date.now() - DAY).toISOString() }) }));
    renderApp('/welcome');
    expect(await screen.findByText('Your free trial has ended')).toBeInTheDocument();
    expect(screen.getByText(/to extend your trial or upgrade your plan/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect Accounts' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Manage Users' })).toBeDisabled();
  });

  it('opens User Management with the "Welcome > User Management" breadcrumb', async () => {
    mockApi(appRoutes());
    const { user } = renderApp('/welcome');
    await user.click(await screen.findByRole('button', { name: 'Manage Users' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'breadcrumb' });
    expect(crumbs).toHaveTextContent('Welcome');
    expect(crumbs).toHaveTextContent('User Management');
    expect(screen.getByTestId('location')).toHaveAttribute('data-state', JSON.stringify({ fromWelcome: true }));
  });

  it('leads "Connect Accounts" to every way in: AWS, GCP, Azure and uploading billing files, with the breadcrumb carried on', async () => {
    mockApi(appRoutes());
    const { user } = renderApp('/welcome');
    await user.click(await screen.findByRole('button', { name: 'Connect Accounts' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Cloud Accounts' })).toBeInTheDocument();
    for (const name of ['Connect AWS', 'Connect GCP', 'Connect Azure', 'Upload billing files']) {
      await waitFor(() => expect(screen.getByRole('button', { name })).toBeEnabled());
    }
    await user.click(screen.getByRole('button', { name: 'Connect AWS' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Connect AWS' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'breadcrumb' })).toHaveTextContent('Connect AWS');
  });

  it('reaches the upload page from Cloud Accounts', async () => {
    mockApi({ ...appRoutes(), 'GET /v1/ingest': { body: [] } });
    const { user } = renderApp('/welcome');
    await user.click(await screen.findByRole('button', { name: 'Connect Accounts' }));
    await user.click(await screen.findByRole('button', { name: 'Upload billing files' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing Data' })).toBeInTheDocument();
  });

  it('opens Cloud Accounts with its breadcrumb; without the welcome state there is none', async () => {
    mockApi(appRoutes());
    const { user, unmount } = renderApp('/welcome');
    await user.click(await screen.findByRole('button', { name: 'Connect Accounts' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Cloud Accounts' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'breadcrumb' })).toHaveTextContent('Cloud Accounts');
    unmount();
    renderApp('/settings/users');
    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'breadcrumb' })).not.toBeInTheDocument();
  });
});
