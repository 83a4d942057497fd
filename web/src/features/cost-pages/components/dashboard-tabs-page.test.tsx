import { screen, within } from '@testing-library/react';
import { appRoutes, makeAccount, makeConfig, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { inventoryRoutes } from '@/components/inventory/testing';
import { aggr, aggrRoutes, groupedBy } from '../testing/cost-api';

function setup() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
  signInAs(makeUser());
  const api = mockApi({
    ...appRoutes({ config: makeConfig({}, { missionControlDashboard: false }), accounts: [makeAccount()] }),
    ...inventoryRoutes(),
    'POST /v2/cost/aggr': aggrRoutes(
      [groupedBy('service'), aggr([{ service: 'AmazonEC2', amount: 600 }, { service: 'AmazonS3', amount: 400 }])],
      [groupedBy('account'), aggr([{ account: '123456789012', account_name: 'Production', amount: 1000, grouping_values: ['123456789012'] }])],
      [groupedBy('region'), aggr([{ region: 'us-east-1', amount: 750 }, { region: 'eu-west-1', amount: 250 }])],
      [groupedBy('cloud_provider'), aggr([{ cloud_provider: 'aws', amount: 900 }, { cloud_provider: 'gcp', amount: 100 }])],
      [(b) => groupedBy('none')(b) && b.interval === 'daily', aggr([{ timestamp: '2026-11-22', amount: 40 }, { timestamp: '2026-11-23', amount: 20 }])],
      [groupedBy('none'), aggr([{ amount: 1000 }])],
    ),
  });
  return { ...api, ...renderApp('/dashboard') };
}

describe('Dashboard tab page', () => {
  it('shows an overview of the month from the cost API', async () => {
    const { callsTo } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Dashboard', selected: true })).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Month-to-date spend' })).toHaveTextContent('$60.00');
    expect(screen.getByRole('group', { name: 'Last month' })).toHaveTextContent('$1,000.00');
    expect(await screen.findByRole('table', { name: 'Daily spend, last 30 days chart data' })).toHaveTextContent('$60.00');
    const services = await screen.findByRole('table', { name: 'Top services' });
    expect(within(services).getAllByRole('row')[1]).toHaveTextContent('AmazonEC2$600.0060.0%');
    expect(await screen.findByRole('table', { name: 'Top regions' })).toHaveTextContent('us-east-1$750.0075.0%');
    expect(await screen.findByRole('table', { name: 'Cloud providers' })).toHaveTextContent('AWS$900.0090.0%GCP$100.0010.0%');
    expect(await screen.findByRole('table', { name: 'Top accounts' })).toHaveTextContent('Production (123456789012)');
    const top = callsTo('POST', '/v2/cost/aggr').find((c) => (c.body as { group_by?: string }).group_by === 'service');
    expect(top?.body).toMatchObject({ limit: 5, order_by: 'amount', order_desc: true, start_time: '2026-11-01T00:00:00.000Z' });
  });

  it('shows the resource inventory on the Resources tab', async () => {
    const { user, callsTo } = setup();
    await user.click(await screen.findByRole('tab', { name: 'Resources' }));
    const panel = screen.getByRole('tabpanel', { name: 'Resources' });
    expect(await within(panel).findByRole('table', { name: 'Resources' })).toBeInTheDocument();
    expect(await within(panel).findByText('i-0abc')).toBeInTheDocument();
    expect(within(panel).getByRole('combobox', { name: 'AWS Account' })).toBeInTheDocument();
    expect(callsTo('POST', '/v1/resource')[0].body).toMatchObject({ count: 200, order_by: 'c_time', order_desc: true });
  });
});
