import { screen, waitFor, within } from '@testing-library/react';
import { makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { BudgetOverviewSection } from './budget-overview-section';

/** A budget as GET /v1/budgets answers it (docs/API-BUDGETS.md); only the fields the widget reads matter. */
function apiBudget(id: number, name: string, amount: number, currentSpent: number, period = 'Monthly') {
  return { id, name, amount, currentSpent, period, filters: [], alerts: [] };
}

const BUDGETS = [
  apiBudget(1, 'Steady', 1_000, 100),
  apiBudget(2, 'Almost', 1_000, 790),
  apiBudget(3, 'Over', 1_000, 1_250),
  apiBudget(4, 'Edge', 1_000, 800),
  apiBudget(5, 'Warm', 1_000, 700),
  apiBudget(6, 'Quiet', 2_000, 0, 'Quarterly'),
  apiBudget(7, 'Annual', 12_000, 3_000, 'Yearly'),
];

function setup(routes: Record<string, MockReply>) {
  signInAs(makeUser());
  const api = mockApi(routes);
  return { ...api, ...renderWithProviders(<BudgetOverviewSection />) };
}

async function section() {
  return screen.findByRole('region', { name: 'Budget Overview' });
}

describe('BudgetOverviewSection', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts the budgets per status and adds up budget and spend, in total and per period', async () => {
    setup({
      'GET /v1/budgets': { body: BUDGETS },
      'GET /v1/budgets/summary': { body: { totalBudgets: 7, healthyBudgets: 3, warningBudgets: 1, criticalBudgets: 3, alertsBudgets: 2 } },
    });
    const card = await section();
    const counts = await within(card).findByRole('list', { name: 'Budgets by status' });
    // Mission Control's own bands: 70 % is a warning and 80 % critical (the summary's 75/90 counts are not used).
    expect(within(counts).getByRole('listitem', { name: '7 Total' })).toBeInTheDocument();
    expect(within(counts).getByRole('listitem', { name: '3 Healthy' })).toBeInTheDocument();
    expect(within(counts).getByRole('listitem', { name: '2 Warning' })).toBeInTheDocument();
    expect(within(counts).getByRole('listitem', { name: '2 Critical' })).toBeInTheDocument();
    expect(await within(counts).findByRole('listitem', { name: '2 With alerts' })).toBeInTheDocument();

    // 6,640 of 19,000 in total; the five monthly budgets 3,640 of 5,000 = 72.8 %.
    expect(within(card).getByRole('progressbar', { name: 'Total budget used' })).toHaveAttribute('aria-valuetext', '34.9%, Healthy');
    expect(within(card).getByText('$6,640 spent of $19,000')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'Monthly budgets used' })).toHaveAttribute('aria-valuetext', '72.8%, Healthy');
    expect(within(card).getByText('$3,640 spent of $5,000')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'Quarterly budgets used' })).toHaveAttribute('aria-valuetext', '0.0%, Healthy');
    expect(within(card).getByRole('progressbar', { name: 'Yearly budgets used' })).toHaveAttribute('aria-valuetext', '25.0%, Healthy');
    expect(within(card).queryByRole('list', { name: 'Budget health' })).not.toBeInTheDocument();
  });

  it('warns for a period aggregate from 80 % and is critical from 90 %', async () => {
    setup({
      'GET /v1/budgets': {
        body: [apiBudget(1, 'A', 1_000, 850), apiBudget(2, 'B', 1_000, 950, 'Quarterly'), apiBudget(3, 'C', 1_000, 790, 'Yearly')],
      },
      'GET /v1/budgets/summary': { body: { alertsBudgets: 0 } },
    });
    const card = await section();
    expect(await within(card).findByRole('progressbar', { name: 'Monthly budgets used' })).toHaveAttribute('aria-valuetext', '85.0%, Warning');
    expect(within(card).getByRole('progressbar', { name: 'Quarterly budgets used' })).toHaveAttribute('aria-valuetext', '95.0%, Critical');
    expect(within(card).getByRole('progressbar', { name: 'Yearly budgets used' })).toHaveAttribute('aria-valuetext', '79.0%, Healthy');
    expect(within(card).getByRole('progressbar', { name: 'Total budget used' })).toHaveAttribute('aria-valuetext', '86.3%, Warning');
  });

  it('lists the top 6 by severity then percent used, and opens a budget on click', async () => {
    const { user } = setup({ 'GET /v1/budgets': { body: BUDGETS }, 'GET /v1/budgets/summary': { body: { alertsBudgets: 2 } } });
    const card = await section();
    await within(card).findByRole('list', { name: 'Budgets by status' });
    await user.click(within(card).getByRole('button', { name: 'Detail' }));

    const list = within(card).getByRole('list', { name: 'Budget health' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => within(link).getByText(/^[A-Z][a-z]+$/, { selector: 'p' }).textContent)).toEqual([
      'Over',
      'Edge',
      'Almost',
      'Warm',
      'Annual',
      'Steady',
    ]);
    expect(within(card).getByText('Showing the 6 most at-risk of 7 budgets')).toBeInTheDocument();

    const over = links[0];
    expect(within(over).getByText('Critical')).toBeInTheDocument();
    expect(within(over).getByText('$1,250 / $1,000 (125.0%)')).toBeInTheDocument();
    expect(within(over).getByText('8 days remaining')).toBeInTheDocument();
    expect(within(over).getByRole('progressbar', { name: 'Over used' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(links[2]).getByText('Warning')).toBeInTheDocument();
    expect(within(links[4]).getByText('Healthy')).toBeInTheDocument();
    // A yearly budget counts its days to the end of the year (UTC), today included.
    expect(within(links[4]).getByText('39 days remaining')).toBeInTheDocument();

    await user.click(links[1]);
    expect(screen.getByTestId('location')).toHaveTextContent('/budgets/view/4');
  });

  it('reads a list wrapped in data and leaves the alert count out when the summary fails', async () => {
    const { callsTo } = setup({
      'GET /v1/budgets': { body: { data: [apiBudget(9, 'Wrapped', 100, 75)] } },
      'GET /v1/budgets/summary': { status: 500, body: { message: 'boom' } },
    });
    const card = await section();
    const counts = await within(card).findByRole('list', { name: 'Budgets by status' });
    expect(within(counts).getByRole('listitem', { name: '1 Warning' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET', '/v1/budgets/summary')).toHaveLength(1));
    expect(within(counts).queryByRole('listitem', { name: /With alerts/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says there are no active budgets in both views', async () => {
    const { user } = setup({ 'GET /v1/budgets': { body: [] }, 'GET /v1/budgets/summary': { body: { alertsBudgets: 0 } } });
    const card = await section();
    expect(await within(card).findByText('No active budgets found')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Detail' }));
    expect(within(card).getByText('No active budgets found')).toBeInTheDocument();
  });

  it('shows the §8 error with a retry when the list fails', async () => {
    let fail = true;
    const { user } = setup({
      'GET /v1/budgets': () => (fail ? { status: 500, body: { message: 'Database unavailable' } } : { body: [] }),
      'GET /v1/budgets/summary': { body: { alertsBudgets: 0 } },
    });
    const card = await section();
    const alert = await within(card).findByRole('alert');
    expect(within(alert).getByText('Failed to load budget data')).toBeInTheDocument();
    expect(within(alert).getByText('Database unavailable')).toBeInTheDocument();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(card).findByText('No active budgets found')).toBeInTheDocument();
  });
});
