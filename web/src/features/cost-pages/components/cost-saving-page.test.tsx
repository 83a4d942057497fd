import { screen, within } from '@testing-library/react';
import { appRoutes, makeConfig, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, renderWithProviders, signInAs } from '@/test/render';
import { savingsAnswer } from '@/components/findings/testing';
import { aggr, aggrRoutes, groupedBy, spend, startsOn } from '../testing/cost-api';
import { CostSavingPage } from './cost-saving-page';

const usageRows = [
  { cloud_provider: 'aws', service: 'AmazonEC2', account: '111111111111', account_name: 'Production', usage_type: 'BoxUsage:m5.large', amount: 500, grouping_path: 'a' },
  { cloud_provider: 'aws', service: 'AmazonEC2', account: '111111111111', account_name: 'Production', usage_type: 'USW2-BoxUsage:t2.micro', amount: 20, grouping_path: 'b' },
  { cloud_provider: 'aws', service: 'AmazonS3', account: '111111111111', account_name: 'Production', usage_type: 'TimedStorage-ByteHrs', amount: 80, grouping_path: 'c' },
  { cloud_provider: 'gcp', service: 'Compute Engine', account: 'acme-web-prod', usage_type: 'N2 Instance Core running in Americas', amount: 60, grouping_path: 'd' },
];

const creditRows = [
  { cost_type: 'Credit', cloud_provider: 'aws', service: 'AmazonEC2', account: '111111111111', account_name: 'Production', amount: -150, grouping_path: 'x' },
  { cost_type: 'Refund', cloud_provider: 'aws', service: 'AmazonRDS', account: '111111111111', account_name: 'Production', amount: -30, grouping_path: 'y' },
];

function routes({ credits = spend({ Credit: -150, Refund: -30 }), usage = aggr(usageRows), creditAggr = aggr(creditRows) } = {}) {
  return {
    ...appRoutes({ config: makeConfig({}, { newCostDashboard: true }) }),
    'GET /v1/savings': { body: savingsAnswer() },
    'POST /v2/cost/spend': credits,
    'POST /v2/cost/aggr': aggrRoutes(
      [groupedBy('cost_type', 'cloud_provider', 'service', 'account'), creditAggr],
      [groupedBy('cloud_provider', 'service', 'account', 'usage_type'), usage],
      [(b) => groupedBy('service')(b) && startsOn('2026-10-25')(b), aggr([{ service: 'AmazonEC2', amount: 700 }, { service: 'AmazonS3', amount: 110 }, { service: 'Cloud Run', amount: 9 }])],
      [(b) => groupedBy('service')(b) && startsOn('2026-09-25')(b), aggr([{ service: 'AmazonEC2', amount: 500 }, { service: 'AmazonS3', amount: 100 }])],
    ),
  };
}

function useNovember23() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
  signInAs(makeUser());
}

describe('Cost Saving page', () => {
  it('lists credits and refunds received with the rows they come from', async () => {
    useNovember23();
    const { callsTo } = mockApi(routes());
    renderApp('/cost/saving');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cost Analysis' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Cost Saving', selected: true })).toBeInTheDocument();
    const section = await screen.findByRole('region', { name: 'Credits and refunds received' });
    expect(await within(section).findByRole('group', { name: 'Credits received' })).toHaveTextContent('$150.00');
    expect(within(section).getByRole('group', { name: 'Refunds received' })).toHaveTextContent('$30.00');
    const rows = within(section).getByRole('table', { name: 'Credit and refund rows' });
    expect(within(rows).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'TypeProviderServiceAccountAmount',
      'CreditAWSAmazonEC2Production (111111111111)-$150.00',
      'RefundAWSAmazonRDSProduction (111111111111)-$30.00',
    ]);
    expect(callsTo('POST', '/v2/cost/spend')[0].body).toMatchObject({ start_time: '2026-10-25T00:00:00.000Z', end_time: '2026-11-23T23:59:59.999Z' });
  });

  it('finds previous-generation families and on-demand compute in the usage rows', async () => {
    useNovember23();
    const { callsTo } = mockApi(routes());
    renderWithProviders(<CostSavingPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Cost Saving' })).toBeInTheDocument();
    const previous = await screen.findByRole('table', { name: 'Previous-generation instance families rows' });
    expect(within(previous).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'ProviderServiceAccountUsage typeFamilyAmount',
      'AWSAmazonEC2Production (111111111111)USW2-BoxUsage:t2.microt2$20.00',
    ]);
    expect(screen.getByRole('group', { name: 'Spend on previous-generation families' })).toHaveTextContent('$20.00');
    const onDemand = screen.getByRole('table', { name: 'On-demand compute rows' });
    expect(within(onDemand).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual([
      'AWSAmazonEC2Production (111111111111)BoxUsage:m5.large$500.00',
      'AWSAmazonEC2Production (111111111111)USW2-BoxUsage:t2.micro$20.00',
      'GCPCompute Engineacme-web-prodN2 Instance Core running in Americas$60.00',
    ]);
    expect(screen.getByRole('group', { name: 'Spend at on-demand rates' })).toHaveTextContent('$580.00');
    const usageCall = callsTo('POST', '/v2/cost/aggr').find((c) => JSON.stringify(c.body).includes('usage_type'));
    expect(usageCall?.body).toMatchObject({ cost_type: { inclusions: ['Usage', 'regular'] }, group_by_hierarchy: false });
  });

  it('lists services that grew more than 25 % against the 30 days before', async () => {
    useNovember23();
    mockApi(routes());
    renderWithProviders(<CostSavingPage />);
    const grown = await screen.findByRole('table', { name: 'Fast-growing services rows' });
    expect(within(grown).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'ServicePeriod beforeThis periodChange',
      'AmazonEC2$500.00$700.00+40.0%',
      'Cloud Run$0.00$9.00New',
    ]);
  });

  it('says so when nothing is found', async () => {
    useNovember23();
    mockApi(routes({ credits: spend({}), usage: aggr([usageRows[2]]), creditAggr: aggr([]) }));
    renderWithProviders(<CostSavingPage />);
    expect(await screen.findByText('No credits or refunds were received in this period.')).toBeInTheDocument();
    expect(await screen.findByText('No spend on previous-generation instance families in this period.')).toBeInTheDocument();
    expect(screen.getByText('No on-demand compute spend in this period.')).toBeInTheDocument();
  });

  it('shows the recommendations on the discovered resources above what the cost data shows', async () => {
    useNovember23();
    const { callsTo } = mockApi(routes());
    renderApp('/cost/saving');
    const recommendations = await screen.findByRole('region', { name: 'Recommendations' });
    expect(await within(recommendations).findByText('EBS volume vol-0aaa is not attached')).toBeInTheDocument();
    expect(within(recommendations).getByRole('group', { name: 'Total monthly saving' })).toHaveTextContent('$8.00');
    const credits = await screen.findByRole('region', { name: 'Credits and refunds received' });
    expect(recommendations.compareDocumentPosition(credits) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(callsTo('GET', '/v1/savings')).toHaveLength(1);
  });
});
