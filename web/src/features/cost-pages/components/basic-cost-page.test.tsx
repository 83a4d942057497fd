import { screen, within } from '@testing-library/react';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { aggr, aggrRoutes, groupedBy, startsOn } from '../testing/cost-api';

const days = Array.from({ length: 23 }, (_, i) => ({ timestamp: `2026-11-${String(i + 1).padStart(2, '0')}`, amount: 100 }));

function setup(aggrReply = aggrRoutes(
  [(b) => groupedBy('none')(b) && b.interval === 'daily' && startsOn('2026-11-01')(b), aggr(days)],
  [(b) => groupedBy('none')(b) && startsOn('2026-10-01')(b), aggr([{ amount: 3100 }])],
  [(b) => groupedBy('none')(b) && startsOn('2026-11-16')(b), aggr([{ amount: 840 }])],
  [groupedBy('service'), aggr([{ service: 'AmazonEC2', amount: 1150, grouping_values: ['AmazonEC2'] }, { service: 'BigQuery', amount: 575, grouping_values: ['BigQuery'] }], { accrued_cost: 2300 })],
  [groupedBy('account'), aggr([{ account: '111111111111', account_name: 'Production', amount: 1840, grouping_values: ['111111111111'] }], { accrued_cost: 2300 })],
)) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
  signInAs(makeUser());
  const api = mockApi({ ...appRoutes(), 'POST /v2/cost/aggr': aggrReply });
  return { ...api, ...renderApp('/cost/basic') };
}

describe('Basic Cost page', () => {
  it('shows month-to-date spend, the forecast with its figures and last month', async () => {
    const { callsTo } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Basic Cost' })).toBeInTheDocument();
    const mtd = await screen.findByRole('group', { name: 'Month-to-date spend' });
    expect(mtd).toHaveTextContent('$2,300.00');
    expect(mtd).toHaveTextContent('Nov 1, 2026 – Nov 23, 2026');
    const forecast = screen.getByRole('group', { name: 'Forecast to month end' });
    // 2,300 + 840 / 7 a day × 7 days left
    expect(forecast).toHaveTextContent('$3,140.00');
    expect(forecast).toHaveTextContent('$2,300.00 so far + $120.00 a day (average of Nov 16, 2026 – Nov 22, 2026) × 7 days left');
    expect(screen.getByRole('group', { name: 'Last month' })).toHaveTextContent('$3,100.00');

    const lastSeven = callsTo('POST', '/v2/cost/aggr').find((c) => (c.body as { start_time: string }).start_time.startsWith('2026-11-16'));
    expect(lastSeven?.body).toMatchObject({ start_time: '2026-11-16T00:00:00.000Z', end_time: '2026-11-22T23:59:59.999Z', group_by: 'none' });
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
    setup(aggrRoutes([(b) => groupedBy('service')(b), { status: 500, body: {} }], [() => true, aggr([])]));
    expect(await screen.findAllByText('No cost data available')).not.toHaveLength(0);
    const services = await screen.findByRole('region', { name: 'Top services this month' });
    expect(await within(services).findByText('Server error occurred')).toBeInTheDocument();
  });
});
