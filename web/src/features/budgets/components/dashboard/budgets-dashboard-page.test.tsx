import { act, screen, within } from '@testing-library/react';
import { makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { markBudgetsForRefresh } from '../../model/refresh-flag';
import type { Budget, BudgetSummary } from '../../model/types';
import { makeBudget } from '../../testing/make-budget';
import { BudgetsDashboardPage } from './budgets-dashboard-page';

const production = makeBudget({
  id: 1,
  name: 'Production AWS',
  amount: 5000,
  currentSpent: 5310,
  filters: [
    { filterType: 'account', filterValues: ['123456789012'] },
    { filterType: 'cloudProvider', filterValues: ['aws'] },
  ],
  alerts: [{ thresholdType: 'Percentage', thresholdValue: 100 }],
});
const staging = makeBudget({
  id: 2,
  name: 'Staging',
  period: 'Quarterly',
  amount: 1000,
  currentSpent: 800,
  filters: [{ filterType: 'region', filterValues: ['eu-west-1'] }],
  alerts: [{ thresholdType: 'Absolute', thresholdValue: 900 }],
});
const analytics = makeBudget({
  id: 3,
  name: 'Analytics',
  period: 'Yearly',
  amount: 20000,
  currentSpent: 100,
  filters: [{ filterType: 'cloudProvider', filterValues: ['GCP'] }],
  alerts: [],
});
const SUMMARY: BudgetSummary = {
  totalBudgets: 3,
  healthyBudgets: 1,
  warningBudgets: 1,
  criticalBudgets: 1,
  alertsBudgets: 1,
};

let viewer = makeUser();

function renderDashboard({
  budgets = { body: [production, staging, analytics] },
  summary = { body: SUMMARY },
  route = '/budgets',
  more = {},
}: { budgets?: MockReply; summary?: MockReply; route?: string; more?: Record<string, MockReply> } = {}) {
  const api = mockApi({
    'GET /v1/auth/me': { body: viewer },
    'GET /v1/budgets': budgets,
    'GET /v1/budgets/summary': summary,
    ...more,
  });
  return { api, ...renderWithProviders(<BudgetsDashboardPage />, { route }) };
}

const cardNames = () => screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'));
const location = () => screen.getByTestId('location').textContent;
const tile = (label: string) => screen.getByRole('button', { name: new RegExp(`^${label}`) });

async function loaded() {
  await screen.findAllByRole('article');
}

describe('BudgetsDashboardPage', () => {
  beforeEach(() => {
    sessionStorage.clear();
    viewer = makeUser({ role: 'owner' });
    signInAs(viewer);
  });

  it('shows the title, subtitle, About card and the search placeholder', async () => {
    renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Cost Budgets' })).toBeInTheDocument();
    expect(screen.getByText('Track and manage your cloud spending with customized budgets')).toBeInTheDocument();
    expect(screen.getByText('About Cost Budgets')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search by name, account, or provider...')).toBeInTheDocument();
    await loaded();
    expect(cardNames()).toEqual(['Analytics', 'Production AWS', 'Staging']);
  });

  it("shows 'Loading budgets...' while the budgets load", async () => {
    renderDashboard({ budgets: () => new Promise(() => {}) });
    expect(await screen.findByText('Loading budgets...')).toBeInTheDocument();
  });

  it('opens the create wizard from Create Budget', async () => {
    const { user } = renderDashboard();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Create Budget' }));
    expect(location()).toBe('/budgets/create');
  });

  it('disables Create Budget, Edit and Delete for a plain user, with a tooltip', async () => {
    viewer = makeUser({ role: 'user' });
    signInAs(viewer);
    const { user } = renderDashboard();
    await loaded();
    const create = screen.getByRole('button', { name: 'Create Budget' });
    expect(create).toBeDisabled();
    for (const button of screen.getAllByRole('button', { name: 'Edit' })) expect(button).toBeDisabled();
    for (const button of screen.getAllByRole('button', { name: 'Delete' })) expect(button).toBeDisabled();
    await user.hover(create.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Only owners and admins can manage budgets');
  });

  it('shows the five summary counts', async () => {
    renderDashboard();
    await loaded();
    expect(tile('TOTAL BUDGETS')).toHaveTextContent('TOTAL BUDGETS3');
    expect(tile('HEALTHY')).toHaveTextContent('1');
    expect(tile('WARNING')).toHaveTextContent('1');
    expect(tile('CRITICAL')).toHaveTextContent('1');
    expect(tile('ALERTS')).toHaveTextContent('1');
  });

  it('shows zeros when the summary cannot be read', async () => {
    renderDashboard({ summary: { status: 500, body: { message: 'boom' } } });
    await loaded();
    await expect.poll(() => tile('TOTAL BUDGETS').textContent).toBe('TOTAL BUDGETS0');
    for (const label of ['HEALTHY', 'WARNING', 'CRITICAL', 'ALERTS']) expect(tile(label)).toHaveTextContent(`${label}0`);
  });

  it("toggles a status filter from the summary strip, with the 'Showing: X' chip", async () => {
    const { user } = renderDashboard();
    await loaded();
    await user.click(tile('WARNING'));
    expect(tile('WARNING')).toHaveAttribute('aria-pressed', 'true');
    expect(cardNames()).toEqual(['Staging']);
    expect(screen.getByText('Showing: Warning')).toBeInTheDocument();
    await user.click(tile('CRITICAL'));
    expect(cardNames()).toEqual(['Production AWS']);
    await user.click(tile('CRITICAL'));
    expect(tile('CRITICAL')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByText(/^Showing:/)).not.toBeInTheDocument();
    expect(cardNames()).toHaveLength(3);
  });

  it('filters ALERTS to the budgets with an alert reached, and TOTAL BUDGETS shows all again', async () => {
    const { user } = renderDashboard();
    await loaded();
    await user.click(tile('ALERTS'));
    expect(cardNames()).toEqual(['Production AWS']);
    expect(screen.getByText('Showing: Alerts')).toBeInTheDocument();
    await user.click(tile('TOTAL BUDGETS'));
    expect(cardNames()).toHaveLength(3);
  });

  it("clears the status filter from the chip", async () => {
    const { user } = renderDashboard();
    await loaded();
    await user.click(tile('HEALTHY'));
    expect(cardNames()).toEqual(['Analytics']);
    const chip = screen.getByText('Showing: Healthy').closest('.MuiChip-root') as HTMLElement;
    await user.click(within(chip).getByTestId('CancelIcon'));
    expect(screen.queryByText('Showing: Healthy')).not.toBeInTheDocument();
    expect(cardNames()).toHaveLength(3);
  });

  it('explains an active status filter that matches nothing', async () => {
    const { user } = renderDashboard({
      budgets: { body: [analytics] },
      summary: { body: { ...SUMMARY, totalBudgets: 1, warningBudgets: 0, criticalBudgets: 0, alertsBudgets: 0 } },
    });
    await loaded();
    await user.click(tile('CRITICAL'));
    expect(screen.getByRole('heading', { name: 'No matching budgets found' })).toBeInTheDocument();
    expect(
      screen.getByText('No budgets match the Critical filter. Click on the filter again to show all budgets.'),
    ).toBeInTheDocument();
  });

  it('shows the empty state when there are no budgets', async () => {
    renderDashboard({ budgets: { body: [] } });
    expect(await screen.findByRole('heading', { name: 'No budgets found' })).toBeInTheDocument();
    expect(
      screen.getByText(
        "You haven't created any budgets yet. Click the 'Create Budget' button to create your first budget and start monitoring your cloud costs.",
      ),
    ).toBeInTheDocument();
  });

  it('shows a dismissible error banner and no budgets when the list cannot be read', async () => {
    const { user } = renderDashboard({ budgets: { status: 500, body: { message: 'boom' } } });
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Failed to fetch budgets. Please try again later.');
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.queryByText('Loading budgets...')).not.toBeInTheDocument();
    await user.click(within(banner).getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('Failed to fetch budgets. Please try again later.')).not.toBeInTheDocument();
  });

  it('searches by name, account filter values and providers', async () => {
    const { user } = renderDashboard();
    await loaded();
    const search = screen.getByPlaceholderText('Search by name, account, or provider...');
    await user.type(search, 'stag');
    expect(cardNames()).toEqual(['Staging']);
    await user.clear(search);
    await user.type(search, '1234567');
    expect(cardNames()).toEqual(['Production AWS']);
    await user.clear(search);
    await user.type(search, 'gcp');
    expect(cardNames()).toEqual(['Analytics']);
    await user.clear(search);
    await user.type(search, 'eu-west');
    expect(screen.getByRole('heading', { name: 'No matching budgets found' })).toBeInTheDocument();
  });

  it('sorts by a field, toggles the direction on the same field and starts a new field ascending', async () => {
    const { user } = renderDashboard();
    await loaded();
    const pick = async (label: string) => {
      await user.click(screen.getByRole('button', { name: /^Sort by:/ }));
      await user.click(await screen.findByRole('menuitem', { name: label }));
    };
    expect(screen.getByRole('button', { name: 'Sort by: Name' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Sort by:/ }));
    for (const label of ['Name', 'Budget Amount', 'Current Spent', 'Percentage Used']) {
      expect(screen.getByRole('menuitem', { name: label })).toBeInTheDocument();
    }
    await user.keyboard('{Escape}');

    await pick('Budget Amount');
    expect(cardNames()).toEqual(['Staging', 'Production AWS', 'Analytics']);
    expect(screen.getByRole('button', { name: 'Sort ascending' })).toBeInTheDocument();
    await pick('Budget Amount');
    expect(cardNames()).toEqual(['Analytics', 'Production AWS', 'Staging']);
    expect(screen.getByRole('button', { name: 'Sort descending' })).toBeInTheDocument();
    await pick('Percentage Used');
    expect(cardNames()).toEqual(['Analytics', 'Staging', 'Production AWS']);
    await user.click(screen.getByRole('button', { name: 'Sort ascending' }));
    expect(cardNames()).toEqual(['Production AWS', 'Staging', 'Analytics']);
    await pick('Current Spent');
    expect(cardNames()).toEqual(['Analytics', 'Staging', 'Production AWS']);
  });

  it("opens detail mode with the breadcrumb and leaves it with 'Back to All Budgets'", async () => {
    const { user } = renderDashboard();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Detailed View' }));
    const breadcrumb = screen.getByRole('navigation', { name: 'breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Cost Budgets' })).toHaveAttribute('href', '/budgets');
    const table = screen.getByRole('table', { name: 'Budgets' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0].textContent)).toEqual([
      'Analytics',
      'Production AWS',
      'Staging',
    ]);
    expect(within(rows[1]).getByText('$5,310')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Exceeded')).toBeInTheDocument();
    expect(within(rows[1]).getByText('1 of 1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to All Budgets' }));
    expect(screen.queryByRole('navigation', { name: 'breadcrumb' })).not.toBeInTheDocument();
    expect(cardNames()).toHaveLength(3);
  });

  it('keeps search and status filter in detail mode, and a row opens the budget', async () => {
    const { user } = renderDashboard({ route: '/budgets?view=detail' });
    await screen.findByRole('table', { name: 'Budgets' });
    await user.click(tile('WARNING'));
    const rows = within(screen.getByRole('table', { name: 'Budgets' })).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    await user.click(within(rows[0]).getByText('Quarterly'));
    expect(location()).toBe('/budgets/view/2');
  });

  it('reloads budgets and summary on window focus only when the refresh flag is set', async () => {
    const { api } = renderDashboard();
    await loaded();
    const budgetCalls = () => api.callsTo('GET', '/v1/budgets').length;
    const summaryCalls = () => api.callsTo('GET', '/v1/budgets/summary').length;
    expect(budgetCalls()).toBe(1);
    expect(summaryCalls()).toBe(1);

    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(budgetCalls()).toBe(1);

    markBudgetsForRefresh();
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await expect.poll(budgetCalls).toBe(2);
    await expect.poll(summaryCalls).toBe(2);
    expect(sessionStorage.length).toBe(0);
  });

  it('opens a budget from its card', async () => {
    const { user } = renderDashboard({ budgets: { body: [staging] as Budget[] } });
    await loaded();
    await user.click(screen.getByText('Quarterly Budget'));
    expect(location()).toBe('/budgets/view/2');
  });

  it('deletes a budget from its card and stays on /budgets without it', async () => {
    let deleted = false;
    const budgets: MockReply = () => ({ body: deleted ? [analytics] : [production, analytics] });
    const remove: MockReply = () => {
      deleted = true;
      return { status: 204 };
    };
    const { user } = renderDashboard({ budgets, more: { 'DELETE /v1/budgets/1': remove } });
    await loaded();
    const card = screen.getByRole('article', { name: 'Production AWS' });
    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Budget' });
    await user.type(within(dialog).getByLabelText('Budget name'), 'Production AWS');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await expect.poll(cardNames).toEqual(['Analytics']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(location()).toBe('/budgets');
    expect(sessionStorage.getItem('costscope.budgets.needsRefresh')).toBe('true');
  });
});
