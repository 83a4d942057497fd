import { screen, waitFor, within } from '@testing-library/react';
import type { User } from '@/api/types';
import { resolveTimeRange, toApiDate } from '@/lib/cost';
import { appRoutes, makeAccount, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { makeAnomaly, makeList, makeSettings, makeTagAnomaly } from '../testing/make-anomaly';
import type { Anomaly } from '../types';

const owner = makeUser({ id: 1, role: 'owner' });
const plain = makeUser({ id: 3, name: 'Uma User', email: 'uma@example.com', role: 'user' });

const ec2 = makeAnomaly({ id: 1, service: 'Amazon EC2', start: '2026-11-10', days: 3, actual: 4_500, expected: 3_000, impact: 1_500, impactPercent: 50 });
const storage = makeAnomaly({
  id: 2,
  provider: 'azure',
  accountId: 'sub-1',
  accountName: null,
  service: 'Storage',
  currency: 'EUR',
  start: '2026-11-14',
  days: 1,
  actual: 900,
  expected: 400,
  impact: 500,
  impactPercent: 125,
});
const team = makeTagAnomaly({ id: 3, start: '2026-11-01', days: 7, actual: 800, expected: 600, impact: 200, impactPercent: 33.3333 });
const dismissed = makeAnomaly({ id: 4, service: 'Amazon S3', status: 'dismissed', impact: 300 });

const OPEN = makeList([ec2, storage, team], [
  { currency: 'EUR', amount: 500 },
  { currency: 'USD', amount: 1_700 },
]);

/** Answers the list by the request's status, as the server filters it. */
function listByStatus(all: Anomaly[]): MockReply {
  return (call) => {
    const status = call.query.get('status');
    const chosen = status ? all.filter((a) => a.status === status) : all;
    return { body: { ...makeList(chosen), openImpact: [{ currency: 'USD', amount: 1_700 }] } };
  };
}

function setup(me: User, extra: Record<string, MockReply> = {}, route = '/anomalies') {
  signInAs(me);
  const api = mockApi({
    ...appRoutes({ me, accounts: [makeAccount()] }),
    'GET /v1/anomalies': { body: OPEN },
    'GET /v1/anomalies/settings': { body: makeSettings() },
    'GET /v1/channels': { body: [] },
    'POST /v2/cost/filters': { body: { tags: {} } },
    ...extra,
  });
  return { ...api, ...renderApp(route) };
}

const table = () => screen.findByRole('table', { name: 'Anomalies' });
type Rendered = ReturnType<typeof setup>;
/** The query of each list request so far, oldest first. */
const listQueries = (rendered: Pick<Rendered, 'callsTo'>) =>
  rendered.callsTo('GET', '/v1/anomalies').map((call) => Object.fromEntries(call.query.entries()));

describe('anomalies page: the list', () => {
  it('lists the open anomalies of the last 90 days with their columns, in the server\'s order', async () => {
    const rendered = setup(owner);
    expect(await screen.findByRole('heading', { level: 1, name: 'Anomalies' })).toBeInTheDocument();
    const rows = within(await table()).getAllByRole('row');
    expect(within(rows[0]).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'Start',
      'Days',
      'Service / Tag',
      'Account',
      'Provider',
      'Actual',
      'Expected',
      'Impact',
      'Status',
    ]);
    expect(rows.slice(1).map((row) => within(row).getAllByRole('cell')[2].textContent)).toEqual(['Amazon EC2', 'Storage', 'team=data']);
    expect(rows[1]).toHaveTextContent('Nov 10, 2026');
    expect(rows[1]).toHaveTextContent('Production');
    expect(rows[1]).toHaveTextContent('AWS');
    expect(rows[1]).toHaveTextContent('$4,500.00');
    expect(rows[1]).toHaveTextContent('$3,000.00');
    expect(rows[1]).toHaveTextContent('+$1,500.00 (+50.0%)');
    expect(within(rows[1]).getByText('Open')).toBeInTheDocument();

    const range = resolveTimeRange('last90Days');
    expect(listQueries(rendered)).toEqual([{ start: toApiDate(range.start), end: toApiDate(range.end), status: 'open' }]);
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('Last 90 Days');
    expect(screen.getByRole('button', { name: 'Open', pressed: true })).toBeInTheDocument();
  });

  it('writes each amount in its anomaly\'s currency and sums the open impact per currency', async () => {
    setup(owner);
    const row = within(await table()).getAllByRole('row')[2];
    expect(row).toHaveTextContent('€900.00');
    expect(row).toHaveTextContent('€400.00');
    expect(row).toHaveTextContent('+€500.00 (+125.0%)');
    // An account without a name shows its id.
    expect(row).toHaveTextContent('sub-1');
    expect(row).toHaveTextContent('Azure');
    expect(screen.getByTestId('open-impact')).toHaveTextContent('3 open anomalies, +€500.00 and +$1,700.00 above expected');
  });

  it('shows a tag series as key=value, without account or provider', async () => {
    setup(owner);
    const cells = within(within(await table()).getAllByRole('row')[3]).getAllByRole('cell');
    expect(cells[2]).toHaveTextContent('team=data');
    expect(cells[3]).toHaveTextContent('—');
    expect(cells[4]).toHaveTextContent('—');
    expect(cells[7]).toHaveTextContent('+$200.00 (+33.3%)');
  });

  it('filters by status: Dismissed, Expected, and All without a status', async () => {
    const rendered = setup(owner, { 'GET /v1/anomalies': listByStatus([ec2, dismissed]) });
    expect(within(await table()).getAllByRole('row')).toHaveLength(2);

    await rendered.user.click(screen.getByRole('button', { name: 'Dismissed' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Anomalies' })).queryByText('Amazon EC2')).not.toBeInTheDocument());
    expect(within(await table()).getByText('Amazon S3')).toBeInTheDocument();
    expect(listQueries(rendered).at(-1)).toMatchObject({ status: 'dismissed' });
    expect(screen.getByTestId('location')).toHaveAttribute('data-search', '?status=dismissed');

    await rendered.user.click(screen.getByRole('button', { name: 'Expected' }));
    expect(await screen.findByText('No expected anomalies in this period')).toBeInTheDocument();

    await rendered.user.click(screen.getByRole('button', { name: 'All' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Anomalies' })).getAllByRole('row')).toHaveLength(3));
    expect(listQueries(rendered).at(-1)).not.toHaveProperty('status');
  });

  it('asks for the chosen period', async () => {
    const rendered = setup(owner);
    const { user } = rendered;
    await table();
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: 'Last 30 Days' }));
    const range = resolveTimeRange('last30Days');
    await waitFor(() => expect(listQueries(rendered).at(-1)).toEqual({ start: toApiDate(range.start), end: toApiDate(range.end), status: 'open' }));
    expect(screen.getByTestId('location')).toHaveAttribute('data-search', '?period=last30Days');
  });

  it('reads the period and status from the URL, so a link (or Back) keeps them', async () => {
    const rendered = setup(owner, {}, '/anomalies?period=custom&start=2026-01-01&end=2026-03-31&status=expected');
    await table();
    expect(listQueries(rendered)).toEqual([{ start: '2026-01-01', end: '2026-03-31', status: 'expected' }]);
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('Jan 1, 2026 – Mar 31, 2026');
    expect(screen.getByRole('button', { name: 'Expected', pressed: true })).toBeInTheDocument();
  });

  it('opens an anomaly from its row', async () => {
    const { user } = setup(owner, { 'GET /v1/anomalies/2': { status: 404, body: { message: 'No anomaly found.' } } });
    const row = within(await table()).getAllByRole('row')[2];
    await user.click(within(row).getAllByRole('cell')[0]);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/anomalies/2'));
  });

  it('says when there is no open anomaly in the period', async () => {
    setup(owner, { 'GET /v1/anomalies': { body: makeList([]) } });
    expect(await screen.findByText('No open anomalies in this period')).toBeInTheDocument();
    expect(screen.getByText('Anomalies are found after each billing data load.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Anomalies' })).not.toBeInTheDocument();
  });

  it('shows the server\'s message when the list fails, and retries', async () => {
    let fail = true;
    const message = 'The range must be at most 366 days';
    const { user } = setup(owner, {
      'GET /v1/anomalies': () => (fail ? { status: 422, body: { message, details: { end: [message] } } } : { body: OPEN }),
    });
    expect(await screen.findByText(`Failed to load anomalies: ${message}`)).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await table()).toBeInTheDocument();
  });

  it('shows a loading state until the list arrives', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    setup(owner, { 'GET /v1/anomalies': async () => (await answered, { body: OPEN }) });
    expect(await screen.findByLabelText('Loading anomalies')).toBeInTheDocument();
    release();
    expect(await table()).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading anomalies')).not.toBeInTheDocument();
  });

  it('is in the navigation next to Budgets', async () => {
    const { user } = setup(owner, {}, '/welcome');
    const link = await screen.findByRole('link', { name: 'Anomalies' });
    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Anomalies' })).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/anomalies');
  });

  it('gives plain users the list without the settings', async () => {
    const { callsTo } = setup(plain);
    expect(await table()).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Detection settings' })).not.toBeInTheDocument();
    expect(callsTo('GET', '/v1/anomalies/settings')).toHaveLength(0);
  });
});
