import { screen, within } from '@testing-library/react';
import { resolveTimeRange, toApiDate } from '@/lib/cost';
import { makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import type { OpenAnomalies } from '../api/use-open-anomalies';
import { AnomaliesCard } from './anomalies-card';

type Anomaly = OpenAnomalies['anomalies'][number];

function anomaly(id: number, overrides: Partial<Anomaly>): Anomaly {
  return {
    id,
    start: '2026-11-10',
    end: '2026-11-12',
    days: 3,
    provider: 'aws',
    accountId: '123456789012',
    accountName: 'Production',
    service: 'Amazon EC2',
    tagKey: null,
    tagValue: null,
    currency: 'USD',
    actual: 4_500,
    expected: 3_000,
    impact: 1_500,
    impactPercent: 50,
    status: 'open',
    detectedAt: '2026-11-12T06:00:00Z',
    updatedAt: '2026-11-12T06:00:00Z',
    contributors: { usageTypes: [], resources: [] },
    ...overrides,
  };
}

/** Four open anomalies, largest impact first as the server sorts them, in two currencies. */
const FOUR: OpenAnomalies = {
  anomalies: [
    anomaly(11, { service: 'Amazon EC2', impact: 1_500 }),
    anomaly(12, { service: 'Storage', provider: 'azure', accountName: null, accountId: 'sub-1', currency: 'EUR', impact: 700, start: '2026-11-20' }),
    anomaly(13, { service: null, provider: null, accountId: null, accountName: null, tagKey: 'team', tagValue: 'data', impact: 300 }),
    anomaly(14, { service: 'Amazon S3', impact: 120 }),
  ],
  openCount: 4,
  openImpact: [
    { currency: 'EUR', amount: 700 },
    { currency: 'USD', amount: 1_920 },
  ],
};

function setup(reply: MockReply) {
  signInAs(makeUser());
  const api = mockApi({ 'GET /v1/anomalies': reply });
  return { ...api, ...renderWithProviders(<AnomaliesCard />) };
}

describe('Mission Control: Anomalies card', () => {
  it('asks for the open anomalies of the last 30 days', async () => {
    const { callsTo } = setup({ body: FOUR });
    await screen.findByText('4 open anomalies');
    const range = resolveTimeRange('last30Days');
    expect(Object.fromEntries(callsTo('GET', '/v1/anomalies')[0].query.entries())).toEqual({
      start: toApiDate(range.start),
      end: toApiDate(range.end),
      status: 'open',
    });
  });

  it('sums the impact per currency and links the three largest', async () => {
    const { user } = setup({ body: FOUR });
    const card = await screen.findByRole('region', { name: 'Anomalies' });
    expect(await within(card).findByText('4 open anomalies')).toBeInTheDocument();
    const impact = within(card).getByRole('list', { name: 'Impact by currency' });
    expect(within(impact).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '+€700.00 above expected',
      '+$1,920.00 above expected',
    ]);
    const links = within(within(card).getByRole('list', { name: 'Largest open anomalies' })).getAllByRole('link');
    expect(links).toHaveLength(3);
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/anomalies/11', '/anomalies/12', '/anomalies/13']);
    expect(links[0]).toHaveTextContent('Amazon EC2');
    expect(links[0]).toHaveTextContent('Production · since Nov 10, 2026');
    expect(links[0]).toHaveTextContent('+$1,500.00');
    expect(links[1]).toHaveTextContent('sub-1');
    expect(links[1]).toHaveTextContent('+€700.00');
    expect(links[2]).toHaveTextContent('team=data');
    expect(links[2]).toHaveTextContent('Since Nov 10, 2026');
    expect(within(card).queryByText('Amazon S3')).not.toBeInTheDocument();

    await user.click(links[1]);
    expect(screen.getByTestId('location')).toHaveTextContent('/anomalies/12');
  });

  it('has "View all" to the anomaly list', async () => {
    const { user } = setup({ body: FOUR });
    const card = await screen.findByRole('region', { name: 'Anomalies' });
    await user.click(within(card).getByRole('link', { name: 'View all' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/anomalies$/);
  });

  it('says when nothing is open', async () => {
    setup({ body: { anomalies: [], openCount: 0, openImpact: [] } });
    expect(await screen.findByText('No open anomalies in the last 30 days')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View all' })).toBeInTheDocument();
  });

  it('shows a failure with Retry', async () => {
    let fail = true;
    const { user } = setup(() => (fail ? { status: 503, body: { message: 'Service unavailable' } } : { body: FOUR }));
    expect(await screen.findByText('Failed to load anomalies')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('4 open anomalies')).toBeInTheDocument();
  });
});
