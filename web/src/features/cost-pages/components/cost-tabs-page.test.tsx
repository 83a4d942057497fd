import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { appRoutes, makeConfig, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, renderWithProviders, signInAs } from '@/test/render';
import { aggr, spend } from '../testing/cost-api';
import { CostTabsPage, type CostTab } from './cost-tabs-page';

function withCostApi() {
  signInAs(makeUser());
  mockApi({
    ...appRoutes({ config: makeConfig({}, { newCostDashboard: true }) }),
    'POST /v2/cost/aggr': aggr([]),
    'POST /v2/cost/spend': spend({}),
  });
}

describe('Cost Analysis tab page', () => {
  it('shows the Basic Cost tab under the Cost Analysis title and navigates to /cost/{tab}', async () => {
    withCostApi();
    const { user } = renderApp('/cost/basic');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cost Analysis' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Basic Cost', 'Advanced Cost', 'Cost Saving']);
    expect(screen.getByRole('tab', { name: 'Basic Cost' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('tabpanel', { name: 'Basic Cost' })).toHaveTextContent('This month');

    await user.click(screen.getByRole('tab', { name: 'Cost Saving' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/cost/saving');
    expect(await screen.findByRole('tabpanel', { name: 'Cost Saving' })).toHaveTextContent('Credits and refunds received');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Cost Analysis']);

    // The routes give this tab the Advanced cost page, a lazy chunk: the navigation completes
    // once it has loaded.
    await user.click(screen.getByRole('tab', { name: 'Advanced Cost' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/cost/advanced'));
  });

  it('renders the advanced content it is given in the Advanced Cost tab', async () => {
    withCostApi();
    const page = (tab: CostTab) => <CostTabsPage tab={tab} advanced={<p>Advanced analysis here</p>} />;
    const { user } = renderWithProviders(
      <Routes>
        <Route path="/cost/basic" element={page('basic')} />
        <Route path="/cost/advanced" element={page('advanced')} />
      </Routes>,
      { route: '/cost/basic' },
    );
    expect(screen.queryByText('Advanced analysis here')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Advanced Cost' }));
    expect(await screen.findByRole('tabpanel', { name: 'Advanced Cost' })).toHaveTextContent('Advanced analysis here');
  });
});
