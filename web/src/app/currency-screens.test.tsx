// Every cost screen says which currency it shows and what it converted or left out (issue 11):
// the answers' `currency`, `converted` and `otherCurrencies` as Mission Control, Basic Cost,
// Advanced Cost and a budget's detail render them.
import { screen, within } from '@testing-library/react';
import { makeBudget } from '@/features/budgets/testing/make-budget';
import { appRoutes, makeAccount, makeConfig, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';

const LEFT_OUT = 'choose a display currency and upload exchange rates to combine currencies';

interface Facts {
  currency: string;
  converted: boolean;
  otherCurrencies: Array<{ currency: string; amount: number }>;
}

function spendAnswer(total: number, facts: Facts, warnings: string[] = []) {
  const period = (amount: number) => ({
    total_amount: amount,
    start_time: '2026-11-01T00:00:00.000Z',
    end_time: '2026-11-30T23:59:59.999Z',
    cloud_provider: { AWS: amount },
    cost_type: { Usage: amount, Credit: 0, Refund: 0 },
  });
  return { body: { current_period: period(total), previous_period: period(total / 2), comparison: { absolute_change: total / 2, percent_change: 100 }, warnings, ...facts } };
}

function aggrAnswer(total: number, facts: Facts, warnings: string[] = []): MockReply {
  return {
    body: {
      data: [{ timestamp: '2026-11-02', amount: total, grouping_values: [], grouping_path: '' }],
      summary: { accrued_cost: total, previous_cost: 0, accrued_change: null, currency: facts.currency },
      total_groups: 1,
      warnings,
      ...facts,
    },
  };
}

const noBudgets = {
  'GET /v1/budgets': { body: [] },
  'GET /v1/budgets/summary': { body: { totalBudgets: 0, healthyBudgets: 0, warningBudgets: 0, criticalBudgets: 0, alertsBudgets: 0 } },
  'POST /v2/cost/filters': { body: { accounts: [], account_names: {}, regions: [], services: [], tags: {}, cloud_providers: ['aws'], cost_type: [] } },
};

describe('the currency of the cost screens', () => {
  beforeEach(() => signInAs(makeUser()));

  it('Mission Control: the USD total, and the EUR costs it leaves out with a link to the settings', async () => {
    const facts = { currency: 'USD', converted: false, otherCurrencies: [{ currency: 'EUR', amount: 50 }] };
    mockApi({
      ...appRoutes({ accounts: [makeAccount()] }),
      ...noBudgets,
      'POST /v2/cost/spend': spendAnswer(120.4, facts),
      'POST /v2/cost/aggr': aggrAnswer(120.4, facts),
    });
    renderApp('/dashboard');
    const notice = await screen.findByTestId('currency-notice');
    expect(notice).toHaveTextContent(`Costs in EUR (50.00) are not included: ${LEFT_OUT}`);
    expect(within(notice).getByRole('link', { name: 'Currency settings' })).toHaveAttribute('href', '/settings/currency');
    expect(await within(screen.getByRole('region', { name: 'Total Spend' })).findByText('$120')).toBeInTheDocument();
  });

  it('Mission Control: a converted total in the display currency says it was converted', async () => {
    const facts = { currency: 'EUR', converted: true, otherCurrencies: [] };
    mockApi({
      ...appRoutes({ accounts: [makeAccount()] }),
      ...noBudgets,
      'POST /v2/cost/spend': spendAnswer(1234.4, facts),
      'POST /v2/cost/aggr': aggrAnswer(1234.4, facts),
    });
    renderApp('/dashboard');
    expect(await screen.findByTestId('currency-notice')).toHaveTextContent('Converted to EUR with your exchange rates');
    const total = screen.getByRole('region', { name: 'Total Spend' });
    expect(await within(total).findByText('€1,234')).toBeInTheDocument();
    expect(within(total).getByText('vs €617 previous period')).toBeInTheDocument();
  });

  it('Basic Cost: the month’s figures in pounds, converted', async () => {
    mockApi({
      ...appRoutes({ accounts: [makeAccount()] }),
      'POST /v2/cost/aggr': aggrAnswer(2300, { currency: 'GBP', converted: true, otherCurrencies: [] }),
    });
    renderApp('/cost/basic');
    expect(await screen.findByRole('group', { name: 'Month-to-date spend' })).toHaveTextContent('£2,300.00');
    expect(screen.getByRole('group', { name: 'Last month' })).toHaveTextContent('£2,300.00');
    expect(screen.getByTestId('currency-notice')).toHaveTextContent('Converted to GBP with your exchange rates');
    expect(within(await screen.findByRole('table', { name: 'Top services this month' })).getByText('£2,300.00')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Daily spend this month chart data' })).getByText('£2,300.00')).toBeInTheDocument();
  });

  it('Advanced Cost: the total in yen, and the currency lines said once, not again among the warnings', async () => {
    const facts = { currency: 'JPY', converted: true, otherCurrencies: [{ currency: 'CHF', amount: 7 }] };
    const warnings = [`Costs in CHF (7.00) are not included: ${LEFT_OUT}`, 'Converted to JPY with your exchange rates'];
    mockApi({
      ...appRoutes({ accounts: [makeAccount()], config: makeConfig({}, { oldCostDashboard: true }) }),
      ...noBudgets,
      'POST /v2/cost/aggr': aggrAnswer(123456.7, facts, warnings),
    });
    renderApp('/cost/advanced');
    expect(await screen.findByTestId('total-cost')).toHaveTextContent('¥123,457');
    // The table's amount and the chart's data table too.
    expect((await screen.findAllByRole('cell', { name: '¥123,457' })).length).toBeGreaterThan(0);
    expect(within(screen.getByRole('table', { name: 'Advanced cost chart data' })).getByText('¥123,457')).toBeInTheDocument();
    const notice = screen.getByTestId('currency-notice');
    expect(notice).toHaveTextContent(`Costs in CHF (7.00) are not included: ${LEFT_OUT}`);
    expect(notice).toHaveTextContent('Converted to JPY with your exchange rates');
    expect(screen.getAllByText(/Converted to JPY/)).toHaveLength(1);
    expect(screen.getAllByText(/Costs in CHF/)).toHaveLength(1);
  });

  it('a budget’s detail: amounts in the answer’s currency, and what was converted', async () => {
    const budget = { ...makeBudget({ amount: 5000, currentSpent: 2000 }), currency: 'EUR', converted: true, otherCurrencies: [] };
    mockApi({
      ...appRoutes({ accounts: [makeAccount()] }),
      'GET /v1/budgets/7': { body: budget },
      'GET /v1/budgets/7/alert-history': { body: [] },
      'GET /v1/budgets/7/config-history': { body: [] },
      'GET /v1/budgets/7/history': { body: [] },
    });
    renderApp('/budgets/view/7');
    expect(await screen.findByRole('group', { name: 'Total Budget' })).toHaveTextContent('€5,000');
    expect(screen.getByRole('group', { name: 'Current Spent' })).toHaveTextContent('€2,000');
    expect(screen.getByTestId('currency-notice')).toHaveTextContent('Converted to EUR with your exchange rates');
  });
});
