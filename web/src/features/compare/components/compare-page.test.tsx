import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { drillUrl, type CompareResponse, type CompareRow } from '@/lib/cost';
import { makeAccount, makeUser } from '@/test/fixtures';
import { mockApi, type MockCall, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { ComparePage } from './compare-page';

const NOW = new Date('2026-11-26T15:00:00.000Z');

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});

function row(key: string, current: number, previous: number, name: string | null = null): CompareRow {
  const change = current - previous;
  return {
    key,
    name,
    current,
    previous,
    change,
    percent_change: previous === 0 ? null : (change / Math.abs(previous)) * 100,
    status: previous === 0 && current === 0 ? 'unchanged' : previous === 0 ? 'new' : current === 0 ? 'gone' : change > 0 ? 'grew' : 'fell',
  };
}

/** As the API orders them (largest change first, rises and falls alike). */
const SERVICES = [
  row('AmazonEC2', 1_234.5, 1_000),
  row('AmazonS3', 100, 300),
  row('=cmd|evil', 150, 0),
  row('AmazonRDS', 0, 80),
  row('Cloud SQL', 50, 40),
  row('AWSLambda', 0, 0),
];

function answer(body: { group_by: string; start_time: string; end_time: string }, rows: CompareRow[] = SERVICES): CompareResponse {
  return {
    current_period: { start_time: body.start_time, end_time: body.end_time },
    previous_period: { start_time: '2026-10-06T00:00:00.000Z', end_time: '2026-10-31T23:59:59.999Z' },
    group_by: body.group_by,
    currency: 'USD',
    converted: false,
    otherCurrencies: [],
    rows,
    totals: { current: 1_534.5, previous: 1_420, change: 114.5, percent_change: (114.5 / 1_420) * 100 },
    total_groups: rows.length,
    warnings: [],
  };
}

const compareReply = (call: MockCall) => {
  const body = call.body as { group_by: string; start_time: string; end_time: string };
  if (body.group_by === 'account') {
    return { body: answer(body, [row('111122223333', 900, 500, 'Production'), row('444455556666', 10, 0, null)]) };
  }
  return { body: answer(body) };
};

function setup(route = '/cost/compare', extra: Record<string, MockReply> = {}) {
  signInAs(makeUser());
  const api = mockApi({
    'GET /v1/account': { body: [makeAccount()] },
    'POST /v2/cost/compare': compareReply,
    'POST /v2/cost/filters': { body: { accounts: [], regions: [], services: [], tags: {}, cloud_providers: ['aws'], cost_type: [], warnings: [] } },
    ...extra,
  });
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/cost/compare" element={<ComparePage />} />
    </Routes>,
    { route },
  );
  const compareBodies = () => api.callsTo('POST', '/v2/cost/compare').map((c) => c.body as Record<string, unknown>);
  return { ...api, ...rendered, compareBodies };
}

const search = () => screen.getByTestId('location').getAttribute('data-search') ?? '';

function tableLines(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((line) => [...line.querySelectorAll('th, td')].map((cell) => cell.textContent));
}

describe('Compare page', () => {
  it('compares this month with the previous period by service: rows by change, New and —, totals, the chart', async () => {
    const { compareBodies } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Compare' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Comparison by service' });
    expect(tableLines(table)).toEqual([
      ['AmazonEC2', '$1,000.00', '$1,234.50', '+$234.50', '▲ 23.5 %'],
      ['AmazonS3', '$300.00', '$100.00', '-$200.00', '▼ 66.7 %'],
      ['=cmd|evil', '$0.00', '$150.00', '+$150.00', 'New'],
      ['AmazonRDS', '$80.00', '$0.00', '-$80.00', '▼ 100.0 %'],
      ['Cloud SQL', '$40.00', '$50.00', '+$10.00', '▲ 25.0 %'],
      ['AWSLambda', '$0.00', '$0.00', '$0.00', '—'],
      ['Total', '$1,420.00', '$1,534.50', '+$114.50', '▲ 8.1 %'],
    ]);
    expect(screen.getByTestId('compare-periods')).toHaveTextContent('Nov 1 – Nov 26, 2026 vs Oct 6 – Oct 31, 2026');
    expect(screen.getByRole('combobox', { name: 'Compare with' })).toHaveTextContent('Previous period');
    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('Service');

    // The chart: previous and current of the largest ten changes (here all six), in the API's order.
    const chart = screen.getByRole('table', { name: 'Previous and current by service data' });
    expect(within(chart).getByRole('row', { name: /Previous \(Oct 6 – Oct 31, 2026\)/ })).toHaveTextContent('$1,420.00');
    expect(within(chart).getByRole('row', { name: /Current \(Nov 1 – Nov 26, 2026\)/ })).toHaveTextContent('$1,534.50');

    // One call: no previous dates (the server's previous period), every group, by change.
    expect(compareBodies()).toEqual([
      {
        start_time: '2026-11-01T00:00:00.000Z',
        end_time: '2026-11-26T23:59:59.999Z',
        group_by: 'service',
        filters: [],
        cost_type: { inclusions: ['Usage', 'regular'] },
        order_by: 'change',
        limit: 1000,
        offset: 0,
      },
    ]);
    // The state is in the address.
    expect(search()).toBe('?period=thisMonth&compare=previous&group=service&include=Usage,regular&sort=change&dir=desc');
  });

  it('sorts by each column, rows without a previous amount last for Change %, and keeps the sort in the URL', async () => {
    const { user } = setup();
    const table = await screen.findByRole('table', { name: 'Comparison by service' });
    const names = () => tableLines(table).map((line) => line[0]).slice(0, -1);

    await user.click(within(table).getByRole('button', { name: 'Service' }));
    expect(names()).toEqual(['=cmd|evil', 'AmazonEC2', 'AmazonRDS', 'AmazonS3', 'AWSLambda', 'Cloud SQL']);
    expect(search()).toContain('sort=name&dir=asc');

    await user.click(within(table).getByRole('button', { name: 'Current' }));
    expect(names()).toEqual(['AmazonEC2', '=cmd|evil', 'AmazonS3', 'Cloud SQL', 'AmazonRDS', 'AWSLambda']);
    await user.click(within(table).getByRole('button', { name: 'Current' }));
    expect(names()).toEqual(['AmazonRDS', 'AWSLambda', 'Cloud SQL', 'AmazonS3', '=cmd|evil', 'AmazonEC2']);
    expect(within(table).getByRole('columnheader', { name: 'Current' })).toHaveAttribute('aria-sort', 'ascending');

    await user.click(within(table).getByRole('button', { name: 'Change %' }));
    expect(names()).toEqual(['Cloud SQL', 'AmazonEC2', 'AmazonS3', 'AmazonRDS', '=cmd|evil', 'AWSLambda']);
    await user.click(within(table).getByRole('button', { name: 'Change %' }));
    expect(names()).toEqual(['AmazonRDS', 'AmazonS3', 'AmazonEC2', 'Cloud SQL', '=cmd|evil', 'AWSLambda']);

    // Change ranks by size, rises and falls alike.
    await user.click(within(table).getByRole('button', { name: 'Change' }));
    expect(names()).toEqual(['AmazonEC2', 'AmazonS3', '=cmd|evil', 'AmazonRDS', 'Cloud SQL', 'AWSLambda']);
    expect(search()).toContain('sort=change&dir=desc');
  });

  it('links each row to Advanced Cost drilled into its value over the same period and charge types', async () => {
    setup('/cost/compare?period=lastMonth&group=account&include=Usage');
    const table = await screen.findByRole('table', { name: 'Comparison by account' });
    const production = within(table).getByRole('link', { name: 'Production (111122223333)' });
    expect(production).toHaveAttribute('href', drillUrl('account', '111122223333', { period: 'lastMonth', include: ['Usage'] }));
    expect(within(table).getByRole('link', { name: '444455556666' })).toHaveAttribute(
      'href',
      drillUrl('account', '444455556666', { period: 'lastMonth', include: ['Usage'] }),
    );
  });

  it('opens the state a link describes and asks for it: custom period, custom comparison, filters, sort', async () => {
    const route =
      '/cost/compare?period=custom&from=2026-10-01&to=2026-10-15&compare=custom&pfrom=2026-09-01&pto=2026-09-15' +
      '&group=region&include=Usage,Tax&filters=aws(service=AmazonEC2)&sort=current&dir=asc';
    const { compareBodies } = setup(route);
    await screen.findByRole('table', { name: 'Comparison by region' });
    expect(compareBodies()[0]).toMatchObject({
      start_time: '2026-10-01T00:00:00.000Z',
      end_time: '2026-10-15T23:59:59.999Z',
      previous_start_time: '2026-09-01T00:00:00.000Z',
      previous_end_time: '2026-09-15T23:59:59.999Z',
      group_by: 'region',
      cost_type: { inclusions: ['Usage', 'Tax'] },
      filters: [expect.objectContaining({ cloud_providers: [{ operator: 'equals', values: ['aws'] }], services: [{ operator: 'equals', values: ['AmazonEC2'] }] })],
    });
    expect(screen.getByRole('combobox', { name: 'Compare with' })).toHaveTextContent('Sep 1, 2026 – Sep 15, 2026');
    expect(screen.getByRole('button', { name: 'Filters (2 applied)' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Comparison by region' });
    expect(within(table).getByRole('columnheader', { name: 'Current' })).toHaveAttribute('aria-sort', 'ascending');
    // Written back as it came (a complete state).
    expect(search()).toBe(route.slice('/cost/compare'.length));
  });

  it('changes the grouping and goes back to the previous period, asking again', async () => {
    const { user, compareBodies } = setup('/cost/compare?compare=custom&pfrom=2026-09-01&pto=2026-09-30');
    await screen.findByRole('table', { name: 'Comparison by service' });
    await user.click(screen.getByRole('combobox', { name: 'Group By' }));
    await user.click(await screen.findByRole('option', { name: 'Account' }));
    await screen.findByRole('table', { name: 'Comparison by account' });
    await waitFor(() => expect(compareBodies().at(-1)).toMatchObject({ group_by: 'account', previous_start_time: '2026-09-01T00:00:00.000Z' }));

    await user.click(screen.getByRole('combobox', { name: 'Compare with' }));
    await user.click(await screen.findByRole('option', { name: 'Previous period' }));
    await waitFor(() => expect(compareBodies().at(-1)).not.toHaveProperty('previous_start_time'));
    expect(search()).toContain('compare=previous');
    expect(search()).not.toContain('pfrom');
  });

  it('counts the charge types of Include as on Advanced Cost: a preset in one click', async () => {
    const { user, compareBodies } = setup();
    await screen.findByRole('table', { name: 'Comparison by service' });
    await user.click(screen.getByRole('combobox', { name: 'Include' }));
    await user.click(await screen.findByRole('option', { name: 'Usage only' }));
    await waitFor(() =>
      expect(compareBodies().at(-1)).toMatchObject({ cost_type: { inclusions: ['Usage', 'regular', 'DiscountedUsage', 'SavingsPlanCoveredUsage'] } }),
    );
    expect(search()).toContain('include=Usage,regular,DiscountedUsage,SavingsPlanCoveredUsage');
  });

  it('exports the table as CSV in its order, with the totals, New/— and escaped cells', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:x')), revokeObjectURL: vi.fn() }));
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user } = setup('/cost/compare?sort=previous&dir=desc');
    await screen.findByRole('table', { name: 'Comparison by service' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(names).toEqual(['cost-compare-2026-11-26.csv']);
    expect(await blobs[0].text()).toBe(
      [
        'Service,Previous,Current,Change,Change %',
        `AmazonEC2,1000,1234.5,234.5,${(234.5 / 1_000) * 100}`,
        `AmazonS3,300,100,-200,${(-200 / 300) * 100}`,
        'AmazonRDS,80,0,-80,-100',
        'Cloud SQL,40,50,10,25',
        "'=cmd|evil,0,150,150,New",
        'AWSLambda,0,0,0,—',
        `Total,1420,1534.5,114.5,${(114.5 / 1_420) * 100}`,
        '',
      ].join('\n'),
    );
    click.mockRestore();
  });

  it('shows the error of a failed call with Retry, and says so when neither period has costs', async () => {
    let fail = true;
    const { user } = setup('/cost/compare', {
      'POST /v2/cost/compare': (call) =>
        fail ? { status: 422, body: { message: 'Unknown group by dimension x' } } : { body: answer(call.body as never, []) },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown group by dimension x');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No costs in either period for this selection')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });
});
