import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { User } from '@/api/types';
import { makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import type { Budget, BudgetAlertHistoryItem, BudgetConfigHistoryItem } from '../../model/types';
import { makeBudget } from '../../testing/make-budget';
import { BudgetDetailPage } from './budget-detail-page';

// The Spending Trend + Resources section is W3's and is tested there; here it only has to be
// mounted with the budget, under the root id that …/resources scrolls to.
vi.mock('../spending/budget-spending-section', () => ({
  BudgetSpendingSection: ({ budget }: { budget: Budget }) => (
    <section id="budget-resources" aria-label="Spending and resources">
      {`Spending of budget ${budget.id}`}
    </section>
  ),
}));

const owner = makeUser({ id: 1, role: 'owner' });

function alertTrigger(overrides: Partial<BudgetAlertHistoryItem>): BudgetAlertHistoryItem {
  return {
    id: 1,
    triggeredAt: '2026-11-10T08:00:00Z',
    date: '2026-11-10',
    thresholdType: 'Percentage',
    thresholdValue: 75,
    spentAmount: 3800,
    spendPercentage: 76,
    periodStart: '2026-11-01',
    basis: 'Actual',
    deliveries: [],
    ...overrides,
  };
}

function configChange(overrides: Partial<BudgetConfigHistoryItem>): BudgetConfigHistoryItem {
  return {
    id: 1,
    changedAt: '2026-11-23T10:05:00Z',
    changedBy: 'Demo Owner',
    changeType: 'updated',
    fieldName: 'amount',
    oldValue: 5000,
    newValue: 6000,
    ...overrides,
  };
}

interface Setup {
  budget?: Budget;
  me?: User;
  route?: string;
  replies?: Record<string, MockReply>;
}

function setup({ budget = makeBudget(), me = owner, route = `/budgets/view/${budget.id}`, replies = {} }: Setup = {}) {
  signInAs(me);
  const api = mockApi({
    'GET /v1/auth/me': { body: me },
    [`GET /v1/budgets/${budget.id}`]: { body: budget },
    [`GET /v1/budgets/${budget.id}/alert-history`]: { body: [] },
    [`GET /v1/budgets/${budget.id}/config-history`]: { body: [] },
    ...replies,
  });
  const page = <BudgetDetailPage />;
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/budgets/view/:id" element={page} />
      <Route path="/budgets/view/:id/details" element={page} />
      <Route path="/budgets/view/:id/resources" element={page} />
      <Route path="*" element={null} />
    </Routes>,
    { route },
  );
  return { ...api, ...rendered };
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });
const region = (name: string) => screen.getByRole('region', { name });
const location = () => screen.getByTestId('location');

describe('budget detail page', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('header', () => {
    it('shows the name as title with a breadcrumb back to Budgets', async () => {
      setup();
      await heading('Production AWS');
      const breadcrumb = screen.getByRole('navigation', { name: 'breadcrumb' });
      expect(within(breadcrumb).getByRole('link', { name: 'Budgets' })).toHaveAttribute('href', '/budgets');
      expect(within(breadcrumb).getByText('Production AWS')).toHaveAttribute('aria-current', 'page');
    });

    it("is titled 'Budget #id' when the name is missing", async () => {
      setup({ budget: makeBudget({ id: 12, name: '' }) });
      expect(await heading('Budget #12')).toBeInTheDocument();
    });

    it.each([
      [5310, ['Exceeded Budget'], ['Within Budget', 'Approaching Limit', 'On Track']],
      [5000, ['Within Budget', 'Approaching Limit'], ['Exceeded Budget', 'On Track']],
      [3750, ['Within Budget', 'Approaching Limit'], ['Exceeded Budget', 'On Track']],
      [3700, ['Within Budget', 'On Track'], ['Exceeded Budget', 'Approaching Limit']],
    ])('reads the detail health at %d spent of 5000', async (currentSpent, shown, hidden) => {
      setup({ budget: makeBudget({ amount: 5000, currentSpent }) });
      await heading('Production AWS');
      for (const label of shown) expect(screen.getByText(label)).toBeInTheDocument();
      for (const label of hidden) expect(screen.queryByText(label)).not.toBeInTheDocument();
    });

    it('opens the edit wizard from Edit', async () => {
      const { user } = setup();
      await heading('Production AWS');
      await user.click(screen.getByRole('button', { name: 'Edit' }));
      expect(location()).toHaveTextContent('/budgets/edit/7');
    });

    it('deletes after the name is typed and returns to /budgets', async () => {
      // After the delete the invalidated alert history answers 404, which is only warned about.
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      let deleted = false;
      const gone = { status: 404, body: { message: 'No budget found.' } };
      const { user, callsTo } = setup({
        replies: {
          'DELETE /v1/budgets/7': () => {
            deleted = true;
            return { status: 204 };
          },
          'GET /v1/budgets/7': () => (deleted ? gone : { body: makeBudget() }),
          'GET /v1/budgets/7/alert-history': () => (deleted ? gone : { body: [] }),
          'GET /v1/budgets/7/config-history': () => (deleted ? gone : { body: [] }),
        },
      });
      await heading('Production AWS');
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Budget' });
      await user.type(within(dialog).getByLabelText('Budget name'), 'Production AWS');
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(location()).toHaveTextContent(/^\/budgets$/));
      expect(callsTo('DELETE', '/v1/budgets/7')).toHaveLength(1);
    });

    it('disables Edit and Delete for plain users', async () => {
      setup({ me: makeUser({ id: 3, role: 'user' }) });
      await heading('Production AWS');
      expect(screen.getByRole('button', { name: 'Edit' })).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    });

    it('enables Edit and Delete for admins', async () => {
      setup({ me: makeUser({ id: 2, role: 'admin' }) });
      await heading('Production AWS');
      expect(screen.getByRole('button', { name: 'Edit' })).toBeEnabled();
      expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
    });
  });

  it('shows TOTAL BUDGET, CURRENT SPENT and PERCENTAGE USED', async () => {
    setup({ budget: makeBudget({ amount: 5000, currentSpent: 5310.42 }) });
    await heading('Production AWS');
    const metrics = [
      ['Total Budget', 'TOTAL BUDGET', '$5,000'],
      ['Current Spent', 'CURRENT SPENT', '$5,310'],
      ['Percentage Used', 'PERCENTAGE USED', '106.2%'],
    ];
    for (const [caption, title, value] of metrics) {
      const tile = screen.getByRole('group', { name: caption });
      expect(within(tile).getByText(title)).toBeInTheDocument();
      expect(within(tile).getByText(value)).toBeInTheDocument();
    }
  });

  describe('Forecast', () => {
    it('shows the forecast and the day the spend is forecast to exceed the amount', async () => {
      setup({
        budget: makeBudget({
          amount: 5000,
          currentSpent: 4100,
          forecast: { amount: 5420.4, low: 5100, high: 5800, exceedsOn: '2026-11-23', exceedsOnForecast: true },
        }),
      });
      await heading('Production AWS');
      const forecast = screen.getByRole('group', { name: 'Forecast' });
      expect(forecast).toHaveTextContent('Forecast: $5,420');
      expect(within(forecast).getByText('Forecast to exceed 100 % by the 23rd')).toHaveAttribute('title', '23 November 2026');
    });

    it('shows only the forecast when it stays within the amount, and nothing without a forecast', async () => {
      const { unmount } = setup({
        budget: makeBudget({ forecast: { amount: 3100, low: 2900, high: 3300, exceedsOn: null, exceedsOnForecast: false } }),
      });
      await heading('Production AWS');
      expect(screen.getByRole('group', { name: 'Forecast' })).toHaveTextContent('Forecast: $3,100');
      expect(screen.queryByText(/Forecast to exceed/)).not.toBeInTheDocument();
      unmount();

      setup({ budget: makeBudget({ forecast: null }) });
      await heading('Production AWS');
      expect(screen.queryByRole('group', { name: 'Forecast' })).not.toBeInTheDocument();
    });
  });

  describe('Budget Progress', () => {
    it('caps the bar at 100, says how much is over budget and turns danger', async () => {
      setup({ budget: makeBudget({ amount: 5000, currentSpent: 5310 }) });
      await heading('Production AWS');
      const panel = region('Budget Progress');
      const bar = within(panel).getByRole('progressbar', { name: 'Budget Progress' });
      expect(bar).toHaveAttribute('aria-valuenow', '100');
      expect(bar.className).toMatch(/colorError/);
      expect(within(panel).getByText('$310 over budget')).toBeInTheDocument();
    });

    it('fills to the percentage used below the amount, and is danger from 90', async () => {
      setup({ budget: makeBudget({ amount: 5000, currentSpent: 4500 }) });
      await heading('Production AWS');
      const bar = within(region('Budget Progress')).getByRole('progressbar', { name: 'Budget Progress' });
      expect(bar).toHaveAttribute('aria-valuenow', '90');
      expect(bar.className).toMatch(/colorError/);
      expect(screen.queryByText(/over budget/)).not.toBeInTheDocument();
      expect(within(region('Budget Progress')).getByText('$500 remaining')).toBeInTheDocument();
    });

    it('is a warning from 75', async () => {
      setup({ budget: makeBudget({ id: 8, amount: 5000, currentSpent: 4000 }) });
      await heading('Production AWS');
      expect(screen.getByRole('progressbar', { name: 'Budget Progress' }).className).toMatch(/colorWarning/);
    });

    it('is grey with nothing spent', async () => {
      setup({ budget: makeBudget({ amount: 5000, currentSpent: 0 }) });
      await heading('Production AWS');
      expect(screen.getByRole('progressbar', { name: 'Budget Progress' }).className).not.toMatch(/color(Error|Warning|Success)/);
    });

    it('draws ticks at 25, 50, 75 and 100 percent and one marker per alert', async () => {
      setup({
        budget: makeBudget({
          amount: 5000,
          alerts: [
            { thresholdType: 'Percentage', thresholdValue: 50 },
            { thresholdType: 'Absolute', thresholdValue: 4500 },
          ],
        }),
      });
      await heading('Production AWS');
      const panel = region('Budget Progress');
      const ticks = within(within(panel).getByRole('list', { name: 'Progress ticks' })).getAllByRole('listitem');
      expect(ticks.map((tick) => [tick.textContent, tick.style.left])).toEqual([
        ['25%', '25%'],
        ['50%', '50%'],
        ['75%', '75%'],
        ['100%', '100%'],
      ]);
      const markers = within(within(panel).getByRole('list', { name: 'Alert markers' })).getAllByRole('listitem');
      expect(markers.map((marker) => [marker.textContent, marker.style.left])).toEqual([
        ['50%', '50%'],
        ['$4,500', '90%'],
      ]);
    });

    it('tells the period and the days remaining', async () => {
      setup();
      await heading('Production AWS');
      expect(
        within(region('Budget Progress')).getByText('Monthly budget · 1 November 2026 to 30 November 2026 · 7 days remaining'),
      ).toBeInTheDocument();
    });
  });

  it('groups the filters by filter type', async () => {
    setup({
      budget: makeBudget({
        filters: [
          { filterType: 'region', filterValues: ['us-east-1', 'eu-west-1'] },
          { filterType: 'cloudProvider', filterValues: ['AWS'] },
          { filterType: 'tag', filterValues: ['team:platform'] },
        ],
      }),
    });
    await heading('Production AWS');
    const panel = region('Filters');
    expect(within(panel).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Cloud Provider', 'Region', 'Tag']);
    const regions = within(panel).getByRole('group', { name: 'Region' });
    expect(within(regions).getByText('us-east-1')).toBeInTheDocument();
    expect(within(regions).getByText('eu-west-1')).toBeInTheDocument();
  });

  describe('Alerts', () => {
    const budget = makeBudget({
      amount: 5000,
      currentSpent: 4000, // 80%
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 100 },
        { thresholdType: 'Percentage', thresholdValue: 50 },
        { thresholdType: 'Absolute', thresholdValue: 3000 },
        { thresholdType: 'Percentage', thresholdValue: 75 },
        { thresholdType: 'Absolute', thresholdValue: 4500 },
      ],
    });

    const rows = () => within(region('Alerts')).getAllByRole('listitem').map((row) => row.textContent);

    it('sorts triggered alerts first by latest trigger and tells each one its state', async () => {
      setup({
        budget,
        replies: {
          'GET /v1/budgets/7/alert-history': {
            body: [
              alertTrigger({ id: 3, thresholdValue: 75, triggeredAt: '2026-11-20T08:00:00Z', spentAmount: 3760 }),
              alertTrigger({ id: 2, thresholdValue: 50, triggeredAt: '2026-11-09T08:00:00Z', spentAmount: 2510 }),
            ],
          },
        },
      });
      await heading('Production AWS');
      await waitFor(() => expect(rows()).toHaveLength(5));
      expect(rows()).toEqual([
        '75%Triggered on 20 November 2026 at $3,760 spent',
        '50%Triggered on 9 November 2026 at $2,510 spent',
        '$3,000Triggered (no history data)',
        '$4,500$500 to go',
        '100%20.0% to go',
      ]);
    });

    it('shows how each latest trigger went out, with a finally failed delivery and its error', async () => {
      const error = 'HTTP 500 from the receiver after 8 attempts';
      const { user } = setup({
        budget,
        replies: {
          'GET /v1/budgets/7/alert-history': {
            body: [
              alertTrigger({
                id: 3,
                thresholdValue: 75,
                triggeredAt: '2026-11-20T08:00:00Z',
                spentAmount: 3760,
                deliveries: [
                  { channelName: 'Team alerts', status: 'delivered', error: null },
                  { channelName: 'Ledger hook', status: 'failed', error },
                  { channelName: 'Teams cost', status: 'retrying', error: 'HTTP 429' },
                  { channelName: 'FinOps mail', status: 'pending' },
                ],
              }),
              alertTrigger({ id: 2, thresholdValue: 50, triggeredAt: '2026-11-09T08:00:00Z', spentAmount: 2510 }),
            ],
          },
        },
      });
      await heading('Production AWS');
      const group = await within(region('Alerts')).findByRole('group', { name: 'Deliveries of the 75% alert' });
      expect(group).toHaveTextContent('Team alertsDeliveredLedger hookFailedTeams costRetryingFinOps mailPending');
      // A trigger that went out nowhere shows no deliveries.
      expect(within(region('Alerts')).queryByRole('group', { name: 'Deliveries of the 50% alert' })).not.toBeInTheDocument();

      const failed = within(group).getByText('Failed');
      await user.hover(failed);
      expect(await screen.findByRole('tooltip')).toHaveTextContent(error);
      // The chip without an error has no tooltip to reach.
      expect(within(group).getByText('Delivered').closest('[tabindex]')).toBeNull();
    });

    it("tags Forecasted alerts and tells how far the forecast is from them or when the forecast reached them", async () => {
      setup({
        budget: makeBudget({
          amount: 5000,
          currentSpent: 2000,
          alerts: [
            { thresholdType: 'Percentage', thresholdValue: 90, basis: 'Forecasted' },
            { thresholdType: 'Percentage', thresholdValue: 100, basis: 'Forecasted' },
            { thresholdType: 'Percentage', thresholdValue: 75 },
          ],
          reachedAlerts: [],
          forecast: { amount: 4600, low: 4300, high: 4900, exceedsOn: null, exceedsOnForecast: false },
        }),
        replies: {
          'GET /v1/budgets/7/alert-history': {
            body: [
              alertTrigger({ id: 4, thresholdValue: 90, basis: 'Forecasted', triggeredAt: '2026-11-12T08:00:00Z', spentAmount: 2000 }),
              // Last period's trigger of the 100% alert does not make it triggered now.
              alertTrigger({ id: 3, thresholdValue: 100, basis: 'Forecasted', periodStart: '2026-10-01', triggeredAt: '2026-10-20T08:00:00Z' }),
            ],
          },
        },
      });
      await heading('Production AWS');
      await waitFor(() => expect(rows()).toHaveLength(3));
      expect(rows()).toEqual([
        '90%ForecastedTriggered by the forecast on 12 November 2026 ($2,000 spent)',
        '75%35.0% to go',
        '100%Forecasted8.0% to go on the forecast',
      ]);
      expect(within(region('Alerts')).getAllByText('Forecasted')).toHaveLength(2);
    });

    it('says a Forecasted alert has no forecast yet while there is not enough history', async () => {
      setup({
        budget: makeBudget({ alerts: [{ thresholdType: 'Absolute', thresholdValue: 4500, basis: 'Forecasted' }], forecast: null }),
      });
      await heading('Production AWS');
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(rows()).toEqual(['$4,500ForecastedNo forecast yet (not enough cost history)']);
    });

    it('says when the budget has no alerts', async () => {
      setup({ budget: makeBudget({ alerts: [] }) });
      await heading('Production AWS');
      expect(within(region('Alerts')).getByText('No alerts configured.')).toBeInTheDocument();
      expect(within(region('Budget Progress')).queryByRole('list', { name: 'Alert markers' })).not.toBeInTheDocument();
    });

    it('warns and treats the alerts as without history when the alert history fails', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      setup({ budget, replies: { 'GET /v1/budgets/7/alert-history': { status: 500, body: { message: 'boom' } } } });
      await heading('Production AWS');
      await waitFor(() => expect(rows()).toHaveLength(5));
      expect(rows().slice(0, 3)).toEqual([
        '50%Triggered (no history data)',
        '$3,000Triggered (no history data)',
        '75%Triggered (no history data)',
      ]);
      expect(warn).toHaveBeenCalled();
    });
  });

  describe('Configuration Change History', () => {
    it('lists date, who, type and a readable description', async () => {
      setup({
        replies: {
          'GET /v1/budgets/7/config-history': {
            body: [
              configChange({ id: 2, changedAt: '2026-11-23T10:05:00Z', changedBy: null }),
              configChange({ id: 1, changedAt: '2026-11-01T09:00:00Z', changeType: 'created', fieldName: null, oldValue: null, newValue: {} }),
            ],
          },
        },
      });
      await heading('Production AWS');
      const table = await within(region('Configuration Change History')).findByRole('table');
      const cells = within(table)
        .getAllByRole('row')
        .map((row) => within(row).queryAllByRole(row.querySelector('th') ? 'columnheader' : 'cell').map((c) => c.textContent));
      expect(cells).toEqual([
        ['Date', 'Changed By', 'Type', 'Description'],
        ['23 Nov 2026, 10:05 UTC', 'System', 'Updated', 'Amount changed from $5,000 to $6,000'],
        ['1 Nov 2026, 09:00 UTC', 'Demo Owner', 'Created', 'Budget created'],
      ]);
    });

    it('names the basis of a Forecasted alert in an alerts change', async () => {
      setup({
        replies: {
          'GET /v1/budgets/7/config-history': {
            body: [
              configChange({
                fieldName: 'alerts',
                oldValue: [{ thresholdType: 'Percentage', thresholdValue: 100 }],
                newValue: [{ thresholdType: 'Percentage', thresholdValue: 100, basis: 'Forecasted' }],
              }),
            ],
          },
        },
      });
      await heading('Production AWS');
      expect(
        await within(region('Configuration Change History')).findByText('Alerts changed from 100% to 100% (Forecasted)'),
      ).toBeInTheDocument();
    });

    it('says when nothing has been recorded', async () => {
      setup();
      await heading('Production AWS');
      expect(await within(region('Configuration Change History')).findByText('No configuration changes recorded.')).toBeInTheDocument();
    });

    it('says when the history cannot be loaded', async () => {
      setup({ replies: { 'GET /v1/budgets/7/config-history': { status: 500, body: { message: 'boom' } } } });
      expect(await screen.findByText('Failed to load configuration history. Please try again later.')).toBeInTheDocument();
    });
  });

  it('mounts the spending section with the budget between the alerts and the history', async () => {
    setup();
    await heading('Production AWS');
    const spending = region('Spending and resources');
    expect(spending).toHaveTextContent('Spending of budget 7');
    expect(region('Alerts').compareDocumentPosition(spending) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(spending.compareDocumentPosition(region('Configuration Change History')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  describe('routes', () => {
    const scrollIntoView = vi.fn();
    const jsdomScrollIntoView = Element.prototype.scrollIntoView;
    beforeEach(() => {
      scrollIntoView.mockClear();
      Element.prototype.scrollIntoView = scrollIntoView;
    });
    afterEach(() => {
      Element.prototype.scrollIntoView = jsdomScrollIntoView;
    });

    it('scrolls the resources section into view on …/resources', async () => {
      setup({ route: '/budgets/view/7/resources' });
      await heading('Production AWS');
      await waitFor(() => expect(scrollIntoView).toHaveBeenCalledTimes(1));
      expect(scrollIntoView.mock.contexts[0]).toBe(region('Spending and resources'));
    });

    it('shows the same page on …/details without scrolling', async () => {
      setup({ route: '/budgets/view/7/details' });
      await heading('Production AWS');
      expect(scrollIntoView).not.toHaveBeenCalled();
    });
  });

  describe('states', () => {
    it('shows loading while the budget is fetched', async () => {
      setup({ replies: { 'GET /v1/budgets/7': () => new Promise(() => undefined) } });
      expect(await screen.findByText('Loading budget details...')).toBeInTheDocument();
      expect(screen.getByRole('progressbar', { name: 'Loading budget details' })).toBeInTheDocument();
    });

    it("says 'No budget found.' on a 404", async () => {
      setup({ replies: { 'GET /v1/budgets/7': { status: 404, body: { message: 'No budget found.' } } } });
      expect(await screen.findByText('No budget found.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Budgets' })).toHaveAttribute('href', '/budgets');
    });

    it("says 'No budget found.' for an id that is not a number, without asking the server", async () => {
      const { calls } = setup({ route: '/budgets/view/abc' });
      expect(await screen.findByText('No budget found.')).toBeInTheDocument();
      expect(calls.filter((call) => call.path.startsWith('/v1/budgets'))).toHaveLength(0);
    });

    it('says the details could not be fetched on other failures, with a retry', async () => {
      let failures = 0;
      const { user } = setup({
        replies: {
          'GET /v1/budgets/7': () => (failures++ === 0 ? { status: 500, body: { message: 'boom' } } : { body: makeBudget() }),
        },
      });
      expect(await screen.findByText('Failed to fetch budget details. Please try again later.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Retry' }));
      expect(await heading('Production AWS')).toBeInTheDocument();
    });
  });
});
