import { screen, waitFor, within } from '@testing-library/react';
import { drillUrl, resolveTimeRange, type CompareResponse, type CompareRow, type SpendResponse } from '@/lib/cost';
import type { ServiceCategoriesResponse } from '../utils/category-summary';
import { appRoutes, makeAccount, makeUser } from '@/test/fixtures';
import { mockApi, type MockCall, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';

const thisMonth = resolveTimeRange('thisMonth');
const lastMonth = resolveTimeRange('lastMonth');
/** The previous period the server answers: the same number of days just before (fixed here). */
const sameLengthBefore = { start_time: '2026-10-06T00:00:00.000Z', end_time: '2026-10-31T23:59:59.999Z' };

function spendAnswer(total: number, previousTotal: number, overrides: Partial<SpendResponse['current_period']> = {}): SpendResponse {
  return {
    current_period: {
      total_amount: total,
      start_time: thisMonth.start,
      end_time: thisMonth.end,
      cloud_provider: { AWS: 9_000, GCP: 3_000, Azure: 345.4 },
      cost_type: { Usage: 13_000.4, Credit: -600, Refund: -55, Tax: 0 },
      ...overrides,
    },
    previous_period: {
      total_amount: previousTotal,
      start_time: '2026-10-09T00:00:00.000Z',
      end_time: '2026-10-31T23:59:59.999Z',
      cloud_provider: { AWS: previousTotal, GCP: 0, Azure: 0 },
      cost_type: { Usage: previousTotal, Credit: 0, Refund: -20 },
    },
    comparison: {
      absolute_change: total - previousTotal,
      percent_change: previousTotal === 0 ? null : ((total - previousTotal) / previousTotal) * 100,
    },
    warnings: [],
    currency: 'USD',
    converted: false,
    otherCurrencies: [],
  };
}

type CategoriesAnswer = ServiceCategoriesResponse['categories'];

function service(name: string, amount: number, previous: number) {
  return { name, amount, previous_amount: previous, percent_change: previous === 0 ? null : ((amount - previous) / Math.abs(previous)) * 100 };
}

/**
 * What the server answers for AmazonEC2 5,000 / Compute Engine 2,000 / AmazonS3 1,500 /
 * AmazonRDS 900 / Cloud SQL 300 / AmazonDynamoDB 200 / SQL Database 100 this month against
 * AmazonEC2 6,000 / Compute Engine 1,500 / AmazonEKS 500 / AmazonS3 1,000 / AmazonRDS 1,400 /
 * AmazonElastiCache 100 the month before (Kubernetes has no spend now, so it is left out).
 */
const CATEGORIES: CategoriesAnswer = [
  {
    category: 'Database',
    amount: 1_500,
    previous_amount: 1_500,
    percent_change: 0,
    insight: false,
    services: [service('AmazonRDS', 900, 1_400), service('Cloud SQL', 300, 0), service('AmazonDynamoDB', 200, 0), service('SQL Database', 100, 0)],
    previous_only: [service('AmazonElastiCache', 0, 100)],
  },
  {
    category: 'Compute',
    amount: 7_000,
    previous_amount: 7_500,
    percent_change: (-500 / 7_500) * 100,
    insight: false,
    services: [service('AmazonEC2', 5_000, 6_000), service('Compute Engine', 2_000, 1_500)],
    previous_only: [],
  },
  {
    category: 'Storage',
    amount: 1_500,
    previous_amount: 1_000,
    percent_change: 50,
    insight: true,
    services: [service('AmazonS3', 1_500, 1_000)],
    previous_only: [],
  },
];

function categoriesAnswer(categories: CategoriesAnswer): ServiceCategoriesResponse {
  return {
    current_period: { start_time: thisMonth.start, end_time: thisMonth.end },
    previous_period: sameLengthBefore,
    categories,
    currency: 'USD',
    other_currencies: [],
    warnings: [],
  };
}

function mover(key: string, current: number, previous: number, name: string | null = null): CompareRow {
  const change = current - previous;
  return {
    key,
    name,
    current,
    previous,
    change,
    percent_change: previous === 0 ? null : (change / Math.abs(previous)) * 100,
    status: previous === 0 ? 'new' : current === 0 ? 'gone' : change > 0 ? 'grew' : 'fell',
  };
}

/** What POST /v2/cost/compare answers for the five largest changes (largest first, rises and falls alike). */
function moversAnswer(groupBy: string, rows: CompareRow[]): CompareResponse {
  return {
    current_period: { start_time: thisMonth.start, end_time: thisMonth.end },
    previous_period: sameLengthBefore,
    group_by: groupBy,
    currency: 'USD',
    converted: false,
    otherCurrencies: [],
    rows,
    totals: { current: 0, previous: 0, change: 0, percent_change: null },
    total_groups: 12,
    warnings: [],
  };
}

const SERVICE_MOVERS = [
  mover('AmazonEC2', 5_000, 6_000),
  mover('AmazonS3', 1_500, 1_000),
  mover('Cloud SQL', 300, 0),
  mover('AmazonElastiCache', 0, 100),
  mover('AmazonRDS', 950, 900),
];
const ACCOUNT_MOVERS = [
  mover('111122223333', 4_000, 3_000, 'Production'),
  mover('444455556666', 800, 1_200, 'Staging'),
  mover('my-gcp-project', 700, 600, null),
  mover('555566667777', 20, 10, 'Sandbox'),
  mover('888899990000', 5, 5, 'Idle'),
];

function setup(extra: Record<string, MockReply> = {}) {
  signInAs(makeUser());
  const api = mockApi({
    ...appRoutes({ accounts: [makeAccount()] }),
    'POST /v2/cost/spend': { body: spendAnswer(12_345.4, 10_000) },
    'POST /v2/cost/service-categories': { body: categoriesAnswer(CATEGORIES) },
    'GET /v1/budgets': { body: [] },
    'GET /v1/budgets/summary': { body: { totalBudgets: 0, healthyBudgets: 0, warningBudgets: 0, criticalBudgets: 0, alertsBudgets: 0 } },
    'POST /v2/cost/filters': { body: { accounts: [], account_names: {}, regions: [], services: [], tags: {}, cloud_providers: ['aws'], cost_type: [] } },
    'POST /v2/cost/compare': (call) => {
      const groupBy = (call.body as { group_by: string }).group_by;
      return { body: moversAnswer(groupBy, groupBy === 'account' ? ACCOUNT_MOVERS : SERVICE_MOVERS) };
    },
    ...extra,
  });
  return { ...api, ...renderApp('/') };
}

function card(name: string) {
  return screen.findByRole('region', { name });
}

describe('Mission Control', () => {
  it('shows the four spend cards of the month from POST /v2/cost/spend', async () => {
    const { callsTo } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Mission Control' })).toBeInTheDocument();
    expect(screen.getByText('Your cloud spend at a glance')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('This Month');
    expect(screen.getByRole('button', { name: 'Filters' })).toBeInTheDocument();

    const total = await card('Total Spend');
    expect(await within(total).findByText('$12,345')).toBeInTheDocument();
    expect(within(total).getByText('+23.5%')).toBeInTheDocument();
    expect(within(total).getByText('vs $10,000 previous period')).toBeInTheDocument();
    expect(within(total).getByText('vs Oct 9 – Oct 31, 2026')).toBeInTheDocument();

    // 600 of credits against 13,000.4 of spend before credits and refunds.
    const credits = await card('Credits Consumption');
    expect(within(credits).getByText('4.6%')).toBeInTheDocument();
    expect(within(credits).getByText('$600 in credits of $13,000 spend before credits and refunds')).toBeInTheDocument();
    expect(within(credits).getByRole('progressbar', { name: 'Credits consumption' })).toHaveAttribute('aria-valuenow', '5');

    const refunds = await card('Refunds Received');
    expect(within(refunds).getByText('$55')).toBeInTheDocument();
    expect(within(refunds).getByText('$20 in the previous period')).toBeInTheDocument();
    expect(within(refunds).getByText('vs Oct 9 – Oct 31, 2026')).toBeInTheDocument();

    const providers = within(await card('Cloud Providers')).getAllByRole('listitem');
    expect(providers.map((item) => item.getAttribute('aria-label'))).toEqual(['AWS', 'GCP', 'Azure']);
    expect(providers[0]).toHaveTextContent('$9,000 (72.9%)');
    expect(providers[2]).toHaveTextContent('$345 (2.8%)');
    expect(within(providers[2]).getByRole('progressbar', { name: 'Azure share' })).toHaveAttribute('aria-valuenow', '3');

    const [request] = callsTo('POST', '/v2/cost/spend');
    expect(request.body).toEqual({ start_time: thisMonth.start, end_time: thisMonth.end, filters: [] });
  });

  it('shows every provider with spend, largest first, whatever its name', async () => {
    setup({
      'POST /v2/cost/spend': {
        body: spendAnswer(489.65, 0, { cloud_provider: { AWS: 154.85, Azure: 125.45, Datadog: 34.11, GCP: 0, Oracle: 175.24 } }),
      },
    });
    const providers = await within(await card('Cloud Providers')).findAllByRole('listitem');
    expect(providers.map((item) => item.getAttribute('aria-label'))).toEqual(['Oracle', 'AWS', 'Azure', 'Datadog']);
    expect(providers[0]).toHaveTextContent('Oracle$175 (35.8%)');
    expect(providers[3]).toHaveTextContent('Datadog$34 (7.0%)');
  });

  it('shows the service categories against the real spend of the previous period of the same length', async () => {
    const { user, callsTo } = setup();
    const section = await screen.findByRole('region', { name: 'Cost by Service Category' });
    expect(await within(section).findByText('Changes vs Oct 6 – Oct 31, 2026')).toBeInTheDocument();

    const list = await within(section).findByRole('list', { name: 'Service categories' });
    const items = within(list).getAllByRole('listitem');
    // In category order; Serverless (Lambda at $0) is hidden.
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Database', 'Compute', 'Storage']);
    expect(items[0]).toHaveTextContent('$1,500');
    expect(items[0]).toHaveTextContent('0.0%');
    expect(items[0]).toHaveTextContent('AmazonRDS, Cloud SQL, AmazonDynamoDB +1 more');
    expect(items[1]).toHaveTextContent('$7,000');
    expect(items[1]).toHaveTextContent('-6.7%');
    expect(items[1]).toHaveTextContent('AmazonEC2, Compute Engine');
    expect(items[2]).toHaveTextContent('+50.0%');

    // Only Storage grew by more than 25 %.
    const insights = within(within(section).getByRole('list', { name: 'Insights' })).getAllByRole('listitem');
    expect(insights.map((item) => item.textContent)).toEqual(['Storage spend is up 50.0% on the previous period: $1,500 against $1,000.']);

    // One call: the range only; the server compares with the same number of days just before.
    const [request] = callsTo('POST', '/v2/cost/service-categories').map((call) => call.body);
    expect(request).toEqual({ start_time: thisMonth.start, end_time: thisMonth.end, filters: [] });

    await user.click(within(section).getByRole('button', { name: 'Detail' }));
    const database = within(section).getByRole('table', { name: 'Database services' });
    const lines = within(database).getAllByRole('row').slice(1);
    expect(lines.map((line) => line.textContent)).toEqual([
      'AmazonRDS$900$1,400-35.7%',
      'Cloud SQL$300$0New',
      'AmazonDynamoDB$200$0New',
      'SQL Database$100$0New',
      'AmazonElastiCache$0$100-100.0%',
    ]);
    // Kubernetes has no spend now: hidden (EKS is not Compute's).
    const compute = within(section).getByRole('table', { name: 'Compute services' });
    expect(within(compute).getAllByRole('row').slice(1).map((line) => line.textContent)).toEqual([
      'AmazonEC2$5,000$6,000-16.7%',
      'Compute Engine$2,000$1,500+33.3%',
    ]);
    expect(within(section).queryByRole('table', { name: 'Kubernetes services' })).not.toBeInTheDocument();
    expect(within(section).queryByRole('list', { name: 'Service categories' })).not.toBeInTheDocument();
  });

  it('shows the top movers by service and by account, each a link to Advanced Cost drilled into it', async () => {
    const { callsTo } = setup();
    const movers = await card('Top movers');
    expect(await within(movers).findByText('vs Oct 6 – Oct 31, 2026')).toBeInTheDocument();

    const services = within(await within(movers).findByRole('list', { name: 'Services' })).getAllByRole('link');
    expect(services.map((link) => link.textContent)).toEqual([
      'AmazonEC2$5,000-$1,000▼ 16.7 %',
      'AmazonS3$1,500+$500▲ 50.0 %',
      'Cloud SQL$300+$300New',
      'AmazonElastiCache$0-$100▼ 100.0 %',
      'AmazonRDS$950+$50▲ 5.6 %',
    ]);
    expect(services[0]).toHaveAttribute('href', drillUrl('service', 'AmazonEC2', { period: 'thisMonth', include: [] }));

    // Accounts by name (the id when the data has none); the link drills into the id.
    const accounts = within(within(movers).getByRole('list', { name: 'Accounts' })).getAllByRole('link');
    expect(accounts.map((link) => link.textContent)).toEqual([
      'Production$4,000+$1,000▲ 33.3 %',
      'Staging$800-$400▼ 33.3 %',
      'my-gcp-project$700+$100▲ 16.7 %',
      'Sandbox$20+$10▲ 100.0 %',
      'Idle$5$00.0 %',
    ]);
    expect(accounts[1]).toHaveAttribute('href', drillUrl('account', '444455556666', { period: 'thisMonth', include: [] }));

    // Two calls over the dashboard's range and filters: five rows each, by change, no previous dates.
    const bodies = callsTo('POST', '/v2/cost/compare').map((call) => call.body);
    for (const groupBy of ['service', 'account']) {
      expect(bodies).toContainEqual({
        start_time: thisMonth.start,
        end_time: thisMonth.end,
        group_by: groupBy,
        filters: [],
        order_by: 'change',
        limit: 5,
      });
    }
  });

  it('says so in Top movers when the compare call fails', async () => {
    setup({ 'POST /v2/cost/compare': { status: 500, body: { message: 'Engine unavailable' } } });
    const alerts = await within(await card('Top movers')).findAllByRole('alert');
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toHaveTextContent('Failed to load top movers');
    expect(alerts[0]).toHaveTextContent('Engine unavailable');
  });

  it('shows the budget overview from GET /v1/budgets', async () => {
    const { user, callsTo } = setup();
    const budgets = await screen.findByRole('region', { name: 'Budget Overview' });
    expect(await within(budgets).findByText('No active budgets found')).toBeInTheDocument();
    await user.click(within(budgets).getByRole('button', { name: 'Detail' }));
    expect(within(budgets).getByRole('button', { name: 'Detail' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(budgets).getByText('No active budgets found')).toBeInTheDocument();
    expect(callsTo('GET', '/v1/budgets')).toHaveLength(1);
  });

  it('says so when no provider and no category has spend', async () => {
    setup({
      'POST /v2/cost/spend': { body: spendAnswer(0, 0, { cloud_provider: { AWS: 0, GCP: 0, Azure: 0 }, cost_type: { Credit: 0, Refund: 0 } }) },
      'POST /v2/cost/service-categories': { body: categoriesAnswer([]) },
    });
    expect(await within(await card('Cloud Providers')).findByText('No cloud provider data available')).toBeInTheDocument();
    expect(within(await card('Total Spend')).getByText('$0')).toBeInTheDocument();
    expect(within(await card('Total Spend')).getByText(/No spend in the previous period/)).toBeInTheDocument();
    expect(within(await card('Credits Consumption')).getByText('No spend in this period')).toBeInTheDocument();
    const section = await card('Cost by Service Category');
    expect(await within(section).findByText('No service category data available for the selected period')).toBeInTheDocument();
  });

  it('shows the dashboard error in the cards and the categories error in its section', async () => {
    setup({
      'POST /v2/cost/spend': { status: 500, body: { message: 'Engine unavailable' } },
      'POST /v2/cost/service-categories': { status: 503, body: {} },
    });
    for (const name of ['Total Spend', 'Credits Consumption', 'Refunds Received', 'Cloud Providers']) {
      const alert = await within(await card(name)).findByRole('alert');
      expect(alert).toHaveTextContent('Failed to load dashboard data');
      expect(alert).toHaveTextContent('Engine unavailable');
    }
    const alert = await within(await card('Cost by Service Category')).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load service categories data');
    expect(alert).toHaveTextContent('Server error occurred');
  });

  it('falls back to the dashboard text for an error without a message, and retries', async () => {
    let failures = 1;
    const { user, callsTo } = setup({
      'POST /v2/cost/spend': () => (failures-- > 0 ? { status: 400, body: {} } : { body: spendAnswer(50, 40) }),
    });
    const total = await card('Total Spend');
    expect(await within(total).findByRole('alert')).toHaveTextContent(
      'Failed to load dashboard dataAn unexpected error occurred while loading dashboard data',
    );
    await user.click(within(total).getByRole('button', { name: 'Retry' }));
    expect(await within(total).findByText('$50')).toBeInTheDocument();
    expect(callsTo('POST', '/v2/cost/spend')).toHaveLength(2);
  });

  it('reloads for a new period, keeps it, and ignores the older answer', async () => {
    let releaseThisMonth: () => void = () => undefined;
    const slowThisMonth = new Promise<void>((resolve) => {
      releaseThisMonth = resolve;
    });
    const { user, callsTo } = setup({
      'POST /v2/cost/spend': async (call) => {
        const body = call.body as { start_time: string };
        if (body.start_time === lastMonth.start) return { body: spendAnswer(4_000, 3_000) };
        await slowThisMonth;
        return { body: spendAnswer(9_999, 3_000) };
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'Mission Control' });
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: 'Last Month' }));

    const total = await card('Total Spend');
    expect(await within(total).findByText('$4,000')).toBeInTheDocument();
    releaseThisMonth();
    await waitFor(() => expect(callsTo('POST', '/v2/cost/spend')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(total).getByText('$4,000')).toBeInTheDocument();
    expect(within(total).queryByText('$9,999')).not.toBeInTheDocument();

    expect(callsTo('POST', '/v2/cost/spend')[1].body).toMatchObject({ start_time: lastMonth.start, end_time: lastMonth.end });
    const categoryCalls = callsTo('POST', '/v2/cost/service-categories').map((call) => call.body);
    expect(categoryCalls).toContainEqual({ start_time: lastMonth.start, end_time: lastMonth.end, filters: [] });
    const moverCalls = callsTo('POST', '/v2/cost/compare').map((call) => call.body);
    expect(moverCalls).toContainEqual(expect.objectContaining({ start_time: lastMonth.start, end_time: lastMonth.end, group_by: 'service' }));
    expect(localStorage.getItem('mission_control_time_range_preset')).toBe('"lastMonth"');
  });

  it('sends the applied filters and asks again when the panel changes them', async () => {
    localStorage.setItem(
      'mission_control_filters',
      JSON.stringify([
        { id: 'p', field: 'cloud_provider', operator: 'equals', value: ['aws'], logic: 'and', level: 0, created: '2026-11-01T00:00:00Z' },
        { id: 's', field: 'service_name', operator: 'equals', value: ['AmazonEC2'], logic: 'and', level: 1, created: '2026-11-01T00:00:00Z' },
      ]),
    );
    const { user, callsTo } = setup();
    await within(await card('Total Spend')).findByText('$12,345');
    const groups = [{ cloud_providers: [{ operator: 'equals', values: ['aws'] }], services: [{ operator: 'equals', values: ['AmazonEC2'] }] }];
    const sent = (call: MockCall) => (call.body as { filters: unknown[] }).filters.map((group) => ({ ...(group as object), operator: undefined }));
    expect(sent(callsTo('POST', '/v2/cost/spend')[0])).toMatchObject(groups);
    for (const call of callsTo('POST', '/v2/cost/service-categories')) expect(sent(call)).toMatchObject(groups);

    await user.click(screen.getByRole('button', { name: 'Filters (2 applied)' }));
    const panel = await screen.findByRole('dialog', { name: 'Filters' });
    await user.click(within(panel).getByRole('button', { name: 'Clear All' }));
    await user.click(within(panel).getByRole('button', { name: 'Apply' }));

    // Without filters the dashboard asks again.
    await waitFor(() => expect(callsTo('POST', '/v2/cost/spend')).toHaveLength(2));
    expect(callsTo('POST', '/v2/cost/spend')[1].body).toEqual({ start_time: thisMonth.start, end_time: thisMonth.end, filters: [] });
    await waitFor(() => expect(callsTo('POST', '/v2/cost/service-categories')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Filters' })).toBeInTheDocument();
  });
});
