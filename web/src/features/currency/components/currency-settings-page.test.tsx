import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeAccount, makeUser } from '@/test/fixtures';
import { mockApi, type MockCall } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import type { CurrencySettings, ExchangeRate } from '../types';

function makeSettings(overrides: Partial<CurrencySettings> = {}): CurrencySettings {
  return {
    displayCurrency: null,
    dataCurrencies: [
      { currency: 'USD', billedCost: 1234.5 },
      { currency: 'EUR', billedCost: 250 },
    ],
    rates: { count: 0, firstDate: null, lastDate: null, pairs: [] },
    ...overrides,
  };
}

const WITH_RATES: CurrencySettings['rates'] = { count: 2, firstDate: '2026-11-01', lastDate: '2026-11-02', pairs: ['EUR→USD'] };

function rate(date: string, value = 1.08): ExchangeRate {
  return { date, from: 'EUR', to: 'USD', rate: value };
}

function routes(settings: CurrencySettings, me = makeUser(), extra: Record<string, Parameters<typeof mockApi>[0][string]> = {}) {
  return {
    ...appRoutes({ accounts: [makeAccount()], me }),
    'GET /v1/currency': { body: settings },
    'GET /v1/exchange-rates': {
      body: { total: settings.rates.count, rates: settings.rates.count ? [rate('2026-11-02'), rate('2026-11-01', 1.07)] : [] },
    },
    ...extra,
  };
}

async function openPage() {
  const rendered = renderApp('/settings/currency');
  expect(await screen.findByRole('heading', { level: 1, name: 'Currency' })).toBeInTheDocument();
  await screen.findByRole('heading', { name: 'Currencies of your data' });
  return rendered;
}

describe('Currency settings page', () => {
  it('lists the data currencies with their billed cost, each in its own currency', async () => {
    signInAs(makeUser());
    mockApi(routes(makeSettings()));
    await openPage();
    const table = screen.getByRole('table', { name: 'Currencies of your data' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('USD$1,234.50');
    expect(rows[2]).toHaveTextContent('EUR€250.00');
    expect(screen.getByText('No exchange rates uploaded.')).toBeInTheDocument();
  });

  it('lets an owner choose the display currency and says what it is now', async () => {
    signInAs(makeUser());
    let settings = makeSettings();
    const api = mockApi(
      routes(settings, makeUser(), {
        'GET /v1/currency': () => ({ body: settings }),
        'PUT /v1/currency': (call: MockCall) => {
          settings = makeSettings({ displayCurrency: (call.body as { displayCurrency: string | null }).displayCurrency });
          return { body: settings };
        },
      }),
    );
    const { user } = await openPage();
    expect(screen.getByRole('combobox', { name: 'Display currency' })).toHaveTextContent('None: each answer in your main currency (USD)');
    await user.click(screen.getByRole('combobox', { name: 'Display currency' }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'None: each answer in your main currency (USD)',
      'USD',
      'EUR',
    ]);
    await user.click(within(listbox).getByRole('option', { name: 'EUR' }));
    expect(await screen.findByText('Amounts are now shown in EUR.')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/v1/currency').map((c) => c.body)).toEqual([{ displayCurrency: 'EUR' }]);
    expect(screen.getByRole('combobox', { name: 'Display currency' })).toHaveTextContent('EUR');
  });

  it('shows the server’s refusal of a display currency as is', async () => {
    signInAs(makeUser({ role: 'admin' }));
    mockApi(
      routes(makeSettings(), makeUser({ role: 'admin' }), {
        'PUT /v1/currency': { status: 403, body: { message: 'Only owners and admins can change the display currency' } },
      }),
    );
    const { user } = await openPage();
    await user.click(screen.getByRole('combobox', { name: 'Display currency' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'EUR' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only owners and admins can change the display currency');
  });

  it('shows a plain user the settings read-only: no select, no upload, no delete', async () => {
    const viewer = makeUser({ id: 2, role: 'user', name: 'Uma User' });
    signInAs(viewer);
    mockApi(routes(makeSettings({ displayCurrency: 'EUR', rates: WITH_RATES }), viewer));
    await openPage();
    expect(await screen.findByText('Display currency:')).toBeInTheDocument();
    expect(screen.getByText('Only owners and admins can change the display currency.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Display currency' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload rates' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete all rates' })).not.toBeInTheDocument();
    // The rates themselves are there to read, and the template to download.
    expect(await screen.findByRole('table', { name: 'Exchange rates' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download template' })).toBeInTheDocument();
  });

  it('uploads a rates CSV as text/csv and shows what the rates now cover', async () => {
    signInAs(makeUser());
    let settings = makeSettings();
    const api = mockApi({
      ...routes(makeSettings()),
      'GET /v1/currency': () => ({ body: settings }),
      'PUT /v1/exchange-rates': () => {
        settings = makeSettings({ rates: WITH_RATES });
        return { body: WITH_RATES };
      },
      'GET /v1/exchange-rates': () => ({
        body: { total: settings.rates.count, rates: settings.rates.count ? [rate('2026-11-02'), rate('2026-11-01', 1.07)] : [] },
      }),
    });
    const { user } = await openPage();
    const csv = 'date,from,to,rate\n2026-11-01,EUR,USD,1.07\n2026-11-02,EUR,USD,1.08\n';
    await user.upload(screen.getByLabelText('Exchange rates file'), new File([csv], 'rates.csv', { type: 'text/csv' }));
    expect(screen.getByText('rates.csv')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload rates' }));

    const success = await screen.findByText('Exchange rates uploaded.');
    expect(success.closest('[role="alert"]')).toHaveTextContent('2 rates from 1 November 2026 to 2 November 2026');
    const [call] = api.callsTo('PUT', '/v1/exchange-rates');
    expect(call.body).toBe(csv);
    expect(call.headers.get('Content-Type')).toBe('text/csv');
    // The page reads the settings and the table again.
    const table = await screen.findByRole('table', { name: 'Exchange rates' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('2026-11-02EURUSD1.08');
    expect(screen.getAllByText('Pairs: EUR→USD')).toHaveLength(2); // the success notice and the summary
  });

  it('shows the server’s error for a refused file as is and keeps the rates', async () => {
    signInAs(makeUser());
    const message = 'row 3, column "rate": "abc" is not a positive number';
    mockApi(routes(makeSettings({ rates: WITH_RATES }), makeUser(), { 'PUT /v1/exchange-rates': { status: 422, body: { message } } }));
    const { user } = await openPage();
    await user.upload(screen.getByLabelText('Exchange rates file'), new File(['date,from,to,rate\n'], 'bad.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload rates' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByText('2 rates from 1 November 2026 to 2 November 2026')).toBeInTheDocument();
  });

  it('deletes all rates only after the confirmation', async () => {
    signInAs(makeUser());
    let settings = makeSettings({ rates: WITH_RATES });
    const api = mockApi({
      ...routes(settings),
      'GET /v1/currency': () => ({ body: settings }),
      'DELETE /v1/exchange-rates': () => {
        settings = makeSettings();
        return { status: 204 };
      },
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Delete all rates' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete all exchange rates' });
    expect(dialog).toHaveTextContent('Delete all 2 exchange rates?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', '/v1/exchange-rates')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete all rates' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete all exchange rates' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No exchange rates uploaded.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/v1/exchange-rates')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Delete all rates' })).not.toBeInTheDocument();
  });

  it('pages through the rates with the server', async () => {
    signInAs(makeUser());
    const all = Array.from({ length: 30 }, (_, i) => rate(`2026-10-${String(30 - i).padStart(2, '0')}`, 1 + i / 100));
    const api = mockApi({
      ...routes(makeSettings({ rates: { count: 30, firstDate: '2026-10-01', lastDate: '2026-10-30', pairs: ['EUR→USD'] } })),
      'GET /v1/exchange-rates': () => {
        // MockCall carries no query string: read it from the request being answered (a GET is
        // routed synchronously, so it is the latest fetch).
        const request = api.fetchMock.mock.calls.at(-1)![0] as Request;
        const query = new URL(request.url).searchParams;
        const offset = Number(query.get('offset'));
        return { body: { total: all.length, rates: all.slice(offset, offset + Number(query.get('limit'))) } };
      },
    });
    const { user } = await openPage();
    const table = await screen.findByRole('table', { name: 'Exchange rates' });
    expect(within(table).getAllByRole('row')).toHaveLength(26);
    expect(screen.getByText('1–25 of 30')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('26–30 of 30')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Exchange rates' })).getAllByRole('row')).toHaveLength(6));
    expect(within(screen.getByRole('table', { name: 'Exchange rates' })).getAllByRole('row')[1]).toHaveTextContent('2026-10-05');
  });

  it('is in the user menu under Settings', async () => {
    signInAs(makeUser());
    mockApi(routes(makeSettings()));
    const { user } = renderApp('/settings/users');
    await user.click(await screen.findByRole('button', { name: 'Open user menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Currency' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Currency' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/settings/currency');
  });
});
