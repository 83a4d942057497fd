import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeAccount, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { aggr, aggrRoutes, startsOn } from '../testing/cost-api';

function setup() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
  signInAs(makeUser());
  const accounts = [
    makeAccount({ account_id: '123456789012', account_name: 'Production' }),
    makeAccount({ id: null, provider: 'gcp', account_id: 'acme-web-prod', aws_account_id: null, account_name: 'acme-web-prod' }),
  ];
  const api = mockApi({
    ...appRoutes({ accounts }),
    'POST /v2/cost/aggr': aggrRoutes(
      [startsOn('2026-11-01'), aggr([{ account: '123456789012', cloud_provider: 'aws', amount: 1200 }, { account: 'acme-web-prod', cloud_provider: 'gcp', amount: 300 }])],
      [startsOn('2026-10-01'), aggr([{ account: '123456789012', cloud_provider: 'aws', amount: 1000 }, { account: 'acme-web-prod', cloud_provider: 'gcp', amount: 400 }])],
      [startsOn('2026-11-17'), aggr([{ account: '123456789012', cloud_provider: 'aws', amount: 70 }])],
      [startsOn('2026-11-10'), aggr([{ account: '123456789012', cloud_provider: 'aws', amount: 35 }])],
    ),
  });
  return { ...api, ...renderApp('/managed-accounts') };
}

describe('Managed Accounts page', () => {
  it('lists spend per account and provider against the previous period', async () => {
    const { callsTo } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Managed Accounts' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Spend per account' });
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'AccountAccount IDProviderSpendPrevious period (Oct 1, 2026 – Oct 31, 2026)Change',
      'Production123456789012AWS$1,200.00$1,000.00+20.0%',
      'acme-web-prodacme-web-prodGCP$300.00$400.00-25.0%',
    ]);
    expect(callsTo('POST', '/v2/cost/aggr')[0].body).toMatchObject({ group_by_dimensions: ['account', 'cloud_provider'], group_by_hierarchy: false });
  });

  it('follows the chosen period', async () => {
    const { user } = setup();
    await screen.findByRole('table', { name: 'Spend per account' });
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(screen.getByRole('option', { name: 'Last 7 Days' }));
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Spend per account' })).getAllByRole('row')[1]).toHaveTextContent('Production123456789012AWS$70.00$35.00+100.0%'),
    );
  });
});
