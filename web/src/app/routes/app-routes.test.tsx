import { screen, waitFor } from '@testing-library/react';
import { inventoryRoutes } from '@/components/inventory/testing';
import { makeAnomaly, makeDetail, makeList, makeSettings } from '@/features/anomalies/testing/make-anomaly';
import { appRoutes, makeAccount, makeConfig, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';

const withAccounts = { accounts: [makeAccount()] };

function location() {
  return screen.getByTestId('location').textContent;
}

describe('routing', () => {
  beforeEach(() => signInAs(makeUser()));

  it('redirects /settings to /settings/integrations', async () => {
    mockApi(appRoutes(withAccounts));
    renderApp('/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cloud Accounts' })).toBeInTheDocument();
    expect(location()).toBe('/settings/integrations');
  });

  it('shows the welcome page on / and /dashboard when there are no cloud accounts', async () => {
    mockApi(appRoutes({ accounts: [] }));
    const { unmount } = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Connect Accounts' })).toBeInTheDocument();
    unmount();
    renderApp('/dashboard');
    expect(await screen.findByRole('button', { name: 'Manage Users' })).toBeInTheDocument();
  });

  it('shows Mission Control on / when there are accounts and the flag is on', async () => {
    mockApi(appRoutes(withAccounts));
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mission Control' })).toBeInTheDocument();
    expect(screen.getByText('Your cloud spend at a glance')).toBeInTheDocument();
  });

  it('opens Billing Data in the settings section, with the breadcrumb when coming from the welcome page', async () => {
    mockApi({ ...appRoutes(withAccounts), 'GET /v1/ingest': { body: [] } });
    renderApp('/settings/billing-data', { fromWelcome: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing Data' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'breadcrumb' })).toHaveTextContent('Billing Data');
    expect(await screen.findByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('opens Cloud Accounts and the AWS, GCP and Azure connect wizards under /settings, each with its breadcrumb name', async () => {
    mockApi(appRoutes(withAccounts));
    for (const [path, heading] of [
      ['/settings/integrations', 'Cloud Accounts'],
      ['/settings/aws-connect', 'Connect AWS'],
      ['/settings/gcp-connect', 'Connect GCP'],
      ['/settings/azure-connect', 'Connect Azure'],
    ]) {
      const page = renderApp(path, { fromWelcome: true });
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      expect(screen.getByRole('navigation', { name: 'breadcrumb' })).toHaveTextContent(`Welcome${heading}`);
      expect(screen.queryByRole('heading', { name: /is coming soon/ })).not.toBeInTheDocument();
      page.unmount();
    }
  });

  it('shows "Page not found" for unknown routes', async () => {
    mockApi(appRoutes(withAccounts));
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('hides /iam unless IAMTab is on', async () => {
    mockApi(appRoutes(withAccounts));
    const { unmount } = renderApp('/iam');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    unmount();
    const { callsTo } = mockApi({ ...appRoutes({ ...withAccounts, config: makeConfig({}, { IAMTab: true }) }), 'GET /v1/findings': { body: [] } });
    renderApp('/iam');
    expect(await screen.findByRole('heading', { level: 1, name: 'IAM' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /is coming soon/ })).not.toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET', '/v1/findings')).toHaveLength(1));
  });

  it('opens /compliance only for the configured customer ids', async () => {
    mockApi(appRoutes({ ...withAccounts, customer: makeCustomer({ id: 10 }) }));
    const { unmount } = renderApp('/compliance');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    unmount();
    const { callsTo } = mockApi({ ...appRoutes({ ...withAccounts, customer: makeCustomer({ id: 112 }) }), 'GET /v1/findings': { body: [] } });
    renderApp('/compliance');
    expect(await screen.findByRole('heading', { level: 1, name: 'Compliance' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /is coming soon/ })).not.toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET', '/v1/findings')).toHaveLength(1));
  });

  it('gates the cost pages by the cost dashboard flags', async () => {
    mockApi(appRoutes({ ...withAccounts, config: makeConfig({}, { oldCostDashboard: false }) }));
    const first = renderApp('/cost/basic');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    first.unmount();

    mockApi(appRoutes({ ...withAccounts, config: makeConfig({}, { oldCostDashboard: false, newCostDashboard: true }) }));
    renderApp('/cost');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cost Analysis' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Basic Cost', selected: true })).toBeInTheDocument();
    expect(location()).toBe('/cost/basic');
  });

  it('opens the budget pages under /budgets', async () => {
    const budgetRoutes = {
      ...appRoutes(withAccounts),
      'GET /v1/budgets': { body: [] },
      'GET /v1/budgets/summary': {
        body: { totalBudgets: 0, healthyBudgets: 0, warningBudgets: 0, criticalBudgets: 0, alertsBudgets: 0 },
      },
      'GET /v1/budgets/4': { status: 404, body: { message: 'No budget found.' } },
    };
    mockApi(budgetRoutes);
    const dashboard = renderApp('/budgets');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cost Budgets' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No budgets found' })).toBeInTheDocument();
    dashboard.unmount();

    const wizard = renderApp('/budgets/create');
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Budget' })).toBeInTheDocument();
    wizard.unmount();

    for (const path of ['/budgets/view/4', '/budgets/view/4/details', '/budgets/view/4/resources']) {
      const detail = renderApp(path);
      expect(await screen.findByText('No budget found.')).toBeInTheDocument();
      detail.unmount();
    }

    renderApp('/budgets/unknown');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('opens the anomaly list on /anomalies and an anomaly on /anomalies/:id', async () => {
    const anomaly = makeAnomaly({ id: 7 });
    mockApi({
      ...appRoutes(withAccounts),
      'GET /v1/anomalies': { body: makeList([anomaly]) },
      'GET /v1/anomalies/settings': { body: makeSettings() },
      'GET /v1/channels': { body: [] },
      'POST /v2/cost/filters': { body: { tags: {} } },
      'GET /v1/anomalies/7': { body: makeDetail({ id: 7 }) },
      'GET /v1/anomalies/8': { status: 404, body: { message: 'No anomaly found.' } },
    });
    const list = renderApp('/anomalies');
    expect(await screen.findByRole('heading', { level: 1, name: 'Anomalies' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Anomalies' })).toBeInTheDocument();
    list.unmount();

    const detail = renderApp('/anomalies/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Amazon EC2' })).toBeInTheDocument();
    detail.unmount();

    renderApp('/anomalies/8');
    expect(await screen.findByText('No anomaly found.')).toBeInTheDocument();
  });

  it('opens the resource inventory on /inventory and the Tags page on /tags', async () => {
    mockApi({ ...appRoutes(withAccounts), ...inventoryRoutes() });
    const inventory = renderApp('/inventory');
    expect(await screen.findByRole('heading', { level: 1, name: 'Resource Inventory' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Resources' })).toBeInTheDocument();
    inventory.unmount();
    renderApp('/tags');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tags' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Tags Search' })).toBeInTheDocument();
  });

  it('opens the Microsoft Teams connect page under /settings and its sign-in return page on /teams-oauth-callback', async () => {
    mockApi({ ...appRoutes(withAccounts), 'POST /v1/api/teams/oauth/callback': { body: { channel_id: 41 } } });
    const connect = renderApp('/settings/ms-teams-connect');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connect Microsoft Teams' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect with Microsoft Teams' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /is coming soon/ })).not.toBeInTheDocument();
    connect.unmount();

    renderApp('/teams-oauth-callback?error=access_denied');
    // The return page hands over to the connect page, which tells what happened.
    expect(await screen.findByText('Failed to connect to Microsoft Teams.')).toBeInTheDocument();
    expect(location()).toBe('/settings/ms-teams-connect');
  });
});

describe('discovery trigger in the header', () => {
  beforeEach(() => signInAs(makeUser()));

  it('is hidden while the DiscoverJobTrigger flag is off (the default)', async () => {
    mockApi(appRoutes(withAccounts));
    renderApp('/welcome');
    await screen.findByRole('link', { name: 'Budgets' });
    expect(screen.queryByRole('button', { name: 'Discover now' })).not.toBeInTheDocument();
  });

  it('is shown when the flag is on and posts /v1/job', async () => {
    const { callsTo } = mockApi({
      ...appRoutes({ ...withAccounts, config: makeConfig({}, { DiscoverJobTrigger: true }) }),
      'POST /v1/job': { status: 202, body: { data: true } },
    });
    const { user } = renderApp('/welcome');
    const button = await screen.findByRole('button', { name: 'Discover now' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(await screen.findByText('Triggered on-demand discovery, please wait for few mins to reflect the changes.')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/job')).toHaveLength(1);
  });
});

describe('navigation menu in the shell', () => {
  beforeEach(() => signInAs(makeUser()));

  it('shows none of the items when there are no cloud accounts', async () => {
    mockApi(appRoutes({ accounts: [] }));
    renderApp('/welcome');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(await screen.findByText('Connect a cloud account to explore costs, resources and budgets.')).toBeInTheDocument();
    for (const name of ['Dashboard', 'Budgets', 'Inventory', 'Tags']) {
      expect(nav).not.toHaveTextContent(name);
    }
  });

  it('shows the items allowed by flags when there are accounts', async () => {
    mockApi(appRoutes({ ...withAccounts, customer: makeCustomer({ id: 3 }) }));
    renderApp('/welcome');
    expect(await screen.findByRole('link', { name: 'Budgets' })).toHaveAttribute('href', '/budgets');
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Basic Cost' })).toHaveAttribute('href', '/cost/basic');
    expect(screen.getByRole('link', { name: 'Compliance' })).toHaveAttribute('href', '/compliance');
    expect(screen.queryByRole('link', { name: 'IAM' })).not.toBeInTheDocument();
  });
});
