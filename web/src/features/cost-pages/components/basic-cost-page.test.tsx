import { screen, within } from '@testing-library/react';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs, testQueryClient } from '@/test/render';
import type { MockReply } from '@/test/mock-api';
import { basicCostRequests, prefetchBasicCost } from '../prefetch';
import { aggr, aggrRoutes, forecastAnswer, forecastRoutes, groupedBy, startsOn } from '../testing/cost-api';

const days = Array.from({ length: 23 }, (_, i) => ({ timestamp: `2026-11-${String(i + 1).padStart(2, '0')}`, amount: 100 }));

const FORECASTS = forecastRoutes({
  month: forecastAnswer(),
  quarter: forecastAnswer({ start: '2026-10-01', end: '2026-12-31', total: { actualToDate: 5400, forecast: 9300, low: 8900, high: 9800 } }),
  year: forecastAnswer({ start: '2026-01-01', end: '2026-12-31', total: { actualToDate: 33000, forecast: 36900, low: 36100, high: 37800 } }),
});

const NOW = new Date('2026-11-23T12:00:00Z');

const AGGR = aggrRoutes(
  [(b) => groupedBy('none')(b) && b.interval === 'daily' && startsOn('2026-11-01')(b), aggr(days)],
  [(b) => groupedBy('none')(b) && startsOn('2026-10-01')(b), aggr([{ amount: 3100 }])],
  [groupedBy('service'), aggr([{ service: 'AmazonEC2', amount: 1150, grouping_values: ['AmazonEC2'] }, { service: 'BigQuery', amount: 575, grouping_values: ['BigQuery'] }], { accrued_cost: 2300 })],
  [groupedBy('account'), aggr([{ account: '111111111111', account_name: 'Production', amount: 1840, grouping_values: ['111111111111'] }], { accrued_cost: 2300 })],
);

function mockBasicCost(forecastReply: MockReply = FORECASTS, aggrReply: MockReply = AGGR) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  signInAs(makeUser());
  return mockApi({ ...appRoutes(), 'POST /v2/cost/aggr': aggrReply, 'GET /v1/forecast': forecastReply });
}

function setup(forecastReply: MockReply = FORECASTS, aggrReply: MockReply = AGGR) {
  const api = mockBasicCost(forecastReply, aggrReply);
  return { ...api, ...renderApp('/cost/basic') };
}

describe('Basic Cost page', () => {
  it('asks for exactly the answers its reload prefetch fetches (prefetch.ts)', async () => {
    const { callsTo } = setup();
    expect(await screen.findByRole('group', { name: 'Last month' })).toHaveTextContent('$3,100.00');
    await screen.findByRole('table', { name: /Top accounts this month/ });
    const asked = callsTo('POST', '/v2/cost/aggr').map((call) => call.body);
    const prefetched = basicCostRequests(NOW);
    expect(asked).toHaveLength(prefetched.length);
    expect(asked).toEqual(expect.arrayContaining(prefetched));
  });

  it('draws from the answers a prefetch put in the cache, without asking again', async () => {
    const { callsTo } = mockBasicCost();
    const queryClient = testQueryClient();
    prefetchBasicCost(queryClient, NOW);
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(callsTo('POST', '/v2/cost/aggr')).toHaveLength(4);
    renderApp('/cost/basic', undefined, queryClient);
    expect(await screen.findByRole('group', { name: 'Month-to-date spend' })).toHaveTextContent('$2,300.00');
    expect(screen.getByRole('group', { name: 'Last month' })).toHaveTextContent('$3,100.00');
    expect(callsTo('POST', '/v2/cost/aggr')).toHaveLength(4);
  });

  it("shows month-to-date spend, beside it the server's month-end forecast with its 80 % range, and last month", async () => {
    const { callsTo } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Basic Cost' })).toBeInTheDocument();
    const mtd = await screen.findByRole('group', { name: 'Month-to-date spend' });
    expect(mtd).toHaveTextContent('$2,300.00');
    expect(mtd).toHaveTextContent('Nov 1, 2026 – Nov 23, 2026');
    const forecast = await screen.findByRole('group', { name: 'Forecast for November' });
    expect(forecast).toHaveTextContent('$3,140.00');
    expect(forecast).toHaveTextContent('80 % range $2,900.00 – $3,400.00');
    expect(forecast).toHaveTextContent('Based on cost up to Nov 22, 2026');
    expect(screen.getByRole('group', { name: 'Last month' })).toHaveTextContent('$3,100.00');
    expect(callsTo('GET', '/v1/forecast').map((call) => call.query.get('period'))).toEqual(
      expect.arrayContaining(['month', 'quarter', 'year']),
    );
  });

  it('shows the quarter and year forecasts with their ranges', async () => {
    setup();
    expect(await screen.findByRole('group', { name: 'Forecast for Q4 2026' })).toHaveTextContent(
      'Forecast for Q4 2026: $9,300.00 (80 % range $8,900.00 – $9,800.00)',
    );
    expect(await screen.findByRole('group', { name: 'Forecast for 2026' })).toHaveTextContent(
      'Forecast for 2026: $36,900.00 (80 % range $36,100.00 – $37,800.00)',
    );
  });

  it("shows the forecast in the answer's currency", async () => {
    setup(
      forecastRoutes({
        month: forecastAnswer({ currency: 'EUR', total: { actualToDate: 1000, forecast: 1500.5, low: 1400, high: 1600 } }),
        quarter: forecastAnswer({ currency: 'EUR', start: '2026-10-01', end: '2026-12-31' }),
        year: forecastAnswer({ currency: 'EUR', start: '2026-01-01', end: '2026-12-31' }),
      }),
    );
    const forecast = await screen.findByRole('group', { name: 'Forecast for November' });
    expect(forecast).toHaveTextContent('€1,500.50');
    expect(forecast).toHaveTextContent('80 % range €1,400.00 – €1,600.00');
  });

  it('says plainly when there is not enough history for a forecast', async () => {
    const reason = 'Not enough cost history for a forecast (7 days are needed)';
    setup(
      forecastRoutes({
        month: forecastAnswer({ asOf: '2026-11-03', total: null, reason }),
        quarter: forecastAnswer({ asOf: '2026-11-03', start: '2026-10-01', end: '2026-12-31', total: null, reason }),
        year: forecastAnswer({ asOf: '2026-11-03', start: '2026-01-01', end: '2026-12-31', total: null, reason }),
      }),
    );
    const forecast = await screen.findByRole('group', { name: 'Forecast for November' });
    expect(forecast).toHaveTextContent(reason);
    expect(within(forecast).queryByText(/80 % range/)).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Month-to-date spend' })).toHaveTextContent('$2,300.00');
  });

  it('keeps month-to-date spend when the forecast fails', async () => {
    setup({ status: 500, body: { message: 'Server error occurred' } });
    expect(await screen.findByRole('group', { name: 'Month-to-date spend' })).toHaveTextContent('$2,300.00');
    const forecast = await screen.findByRole('group', { name: 'Forecast' });
    expect(await within(forecast).findByText('Server error occurred')).toBeInTheDocument();
  });

  it('lists the top services and accounts of the month with their share of the total', async () => {
    setup();
    const services = await screen.findByRole('table', { name: 'Top services this month' });
    const serviceRows = within(services).getAllByRole('row').map((row) => row.textContent);
    expect(serviceRows).toEqual(['ServiceAmountShare', 'AmazonEC2$1,150.0050.0%', 'BigQuery$575.0025.0%']);
    const accounts = await screen.findByRole('table', { name: 'Top accounts this month' });
    expect(within(accounts).getAllByRole('row')[1]).toHaveTextContent('Production (111111111111)$1,840.0080.0%');
  });

  it('draws the daily chart of the month', async () => {
    setup();
    const chartData = await screen.findByRole('table', { name: 'Daily spend this month chart data' });
    expect(within(chartData).getByRole('row', { name: /Spend/ })).toHaveTextContent('$2,300.00');
  });

  it('says when there is no cost data and when the cost API fails', async () => {
    setup(FORECASTS, aggrRoutes([(b) => groupedBy('service')(b), { status: 500, body: {} }], [() => true, aggr([])]));
    expect(await screen.findAllByText('No cost data available')).not.toHaveLength(0);
    const services = await screen.findByRole('region', { name: 'Top services this month' });
    expect(await within(services).findByText('Server error occurred')).toBeInTheDocument();
  });
});
