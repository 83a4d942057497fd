import { screen, waitFor, within } from '@testing-library/react';
import type { User } from '@/api/types';
import { appRoutes, makeAccount, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { makeAnomaly, makeDetail, makeList, makeSeries, makeSettings, makeTagAnomaly } from '../testing/make-anomaly';
import type { AnomalyDetail, AnomalyStatus } from '../types';

const owner = makeUser({ id: 1, role: 'owner' });
const admin = makeUser({ id: 2, name: 'Adam Admin', email: 'adam@example.com', role: 'admin' });
const plain = makeUser({ id: 3, name: 'Uma User', email: 'uma@example.com', role: 'user' });

const detail = makeDetail({
  id: 5,
  service: 'Amazon EC2',
  accountName: 'Production',
  start: '2026-11-10',
  end: '2026-11-12',
  days: 3,
  actual: 4_500,
  expected: 3_000,
  impact: 1_500,
  impactPercent: 50,
  detectedAt: '2026-11-12T06:00:00Z',
  contributors: {
    usageTypes: [
      { key: 'BoxUsage:m5.4xlarge', actual: 900, expected: 100, difference: 800 },
      { key: 'EBS:VolumeUsage.gp3', actual: 150, expected: 100, difference: 50 },
    ],
    resources: [{ key: 'i-0abc123', actual: 800, expected: 0, difference: 800 }],
  },
  // 28 days before, 3 anomalous days, 7 after; the first 5 days are young (no band yet).
  series: makeSeries('2026-10-13', 38, { anomalous: [28, 29, 30], young: 5 }),
});

/** A detail whose status the PATCH changes, as the server's would. */
function liveDetail(initial: AnomalyDetail) {
  let current = initial;
  return {
    get: (): { body: AnomalyDetail } => ({ body: current }),
    patch: ((call) => {
      const { status } = call.body as { status: AnomalyStatus };
      current = { ...current, status, updatedAt: '2026-11-13T09:00:00Z' };
      const { series: _series, ...anomaly } = current;
      return { body: anomaly };
    }) as MockReply,
  };
}

function setup(me: User, extra: Record<string, MockReply> = {}, path = '/anomalies/5') {
  signInAs(me);
  const live = liveDetail(detail);
  const api = mockApi({
    ...appRoutes({ me, accounts: [makeAccount()] }),
    'GET /v1/anomalies/5': live.get,
    'PATCH /v1/anomalies/5': live.patch,
    'GET /v1/anomalies': { body: makeList([makeAnomaly()]) },
    'GET /v1/anomalies/settings': { body: makeSettings() },
    'GET /v1/channels': { body: [] },
    'POST /v2/cost/filters': { body: { tags: {} } },
    ...extra,
  });
  return { ...api, ...renderApp(path) };
}

const heading = () => screen.findByRole('heading', { level: 1, name: 'Amazon EC2' });
/** The value of one fact (a <dd> after its <dt>). */
const fact = (label: string) => within(screen.getByLabelText('Anomaly facts')).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;

describe('anomaly page', () => {
  it('shows the facts: since when, actual against expected, the impact, where and the status', async () => {
    setup(owner);
    await heading();
    expect(screen.getByText('Production · AWS')).toBeInTheDocument();
    expect(fact('Since')).toHaveTextContent('Nov 10, 2026 – Nov 12, 2026 (3 days)');
    expect(fact('Actual')).toHaveTextContent('$4,500.00');
    expect(fact('Expected')).toHaveTextContent('$3,000.00');
    expect(fact('Impact')).toHaveTextContent('+$1,500.00 (+50.0%)');
    expect(fact('Service')).toHaveTextContent('Amazon EC2');
    expect(fact('Account')).toHaveTextContent('Production');
    expect(fact('Status')).toHaveTextContent('Open');
    expect(fact('Detected')).toHaveTextContent('12 November 2026');
  });

  it('charts every day of the series with the expected band and the anomalous days', async () => {
    setup(owner);
    await heading();
    expect(screen.getByRole('img', { name: 'Daily cost of Amazon EC2' })).toBeInTheDocument();
    const data = screen.getByRole('table', { name: 'Daily cost of Amazon EC2 data' });
    const rows = within(data).getAllByRole('row');
    expect(rows).toHaveLength(1 + 38);
    // A young day has no expected cost or band yet.
    expect(within(rows[1]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['$1,000.00', '—', '—', '—', 'No']);
    expect(within(rows[6]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['$1,000.00', '$1,000.00', '$900.00', '$1,100.00', 'No']);
    const anomalous = rows.slice(1).filter((row) => within(row).getAllByRole('cell')[4].textContent === 'Yes');
    expect(anomalous.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['Nov 10, 2026', 'Nov 11, 2026', 'Nov 12, 2026']);
    expect(within(anomalous[0]).getAllByRole('cell')[0]).toHaveTextContent('$1,500.00');
  });

  it('lists the contributing usage types and resources', async () => {
    setup(owner);
    await heading();
    const usage = screen.getByRole('table', { name: 'Usage types' });
    const usageRows = within(usage).getAllByRole('row');
    expect(within(usageRows[0]).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Usage type', 'Actual', 'Expected', 'Difference']);
    expect(within(usageRows[1]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['BoxUsage:m5.4xlarge', '$900.00', '$100.00', '+$800.00']);
    expect(usageRows).toHaveLength(3);
    const resources = screen.getByRole('table', { name: 'Resources' });
    expect(within(resources).getAllByRole('row')[1]).toHaveTextContent('i-0abc123');
  });

  it('says when no resource contributed', async () => {
    setup(owner, { 'GET /v1/anomalies/5': { body: { ...detail, contributors: { usageTypes: [], resources: [] } } } });
    await heading();
    expect(screen.getByText('No usage type rose on the first day.')).toBeInTheDocument();
    expect(screen.getByText('No resource ids in this cost.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Resources' })).not.toBeInTheDocument();
  });

  it('shows a tag series by its tag, across accounts and providers', async () => {
    setup(owner, { 'GET /v1/anomalies/5': { body: { ...makeTagAnomaly({ id: 5 }), series: detail.series } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'team=data' })).toBeInTheDocument();
    expect(fact('Tag')).toHaveTextContent('team = data');
    expect(fact('Account')).toHaveTextContent('All accounts');
    expect(fact('Provider')).toHaveTextContent('All providers');
  });

  it('lets an owner dismiss an open anomaly, then reopen it', async () => {
    const { user, callsTo } = setup(owner);
    await heading();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByRole('button', { name: 'Reopen' })).toBeInTheDocument();
    expect(callsTo('PATCH', '/v1/anomalies/5')[0].body).toEqual({ status: 'dismissed' });
    expect(fact('Status')).toHaveTextContent('Dismissed');
    expect(screen.queryByRole('button', { name: 'Dismiss' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(await screen.findByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
    expect(callsTo('PATCH', '/v1/anomalies/5')[1].body).toEqual({ status: 'open' });
    expect(fact('Status')).toHaveTextContent('Open');
  });

  it('lets an admin mark an anomaly as expected', async () => {
    const { user, callsTo } = setup(admin);
    await heading();
    await user.click(screen.getByRole('button', { name: 'Mark as expected' }));
    await waitFor(() => expect(fact('Status')).toHaveTextContent('Expected'));
    expect(callsTo('PATCH', '/v1/anomalies/5')[0].body).toEqual({ status: 'expected' });
  });

  it('dismissed from its page, an anomaly leaves the Open list', async () => {
    let status: AnomalyStatus = 'open';
    const { user } = setup(owner, {
      'GET /v1/anomalies': () => ({ body: makeList(status === 'open' ? [makeAnomaly({ id: 5 })] : []) }),
      'PATCH /v1/anomalies/5': (call) => {
        status = (call.body as { status: AnomalyStatus }).status;
        const { series: _series, ...anomaly } = detail;
        return { body: { ...anomaly, status } };
      },
    }, '/anomalies');
    expect(await screen.findByRole('link', { name: 'Amazon EC2' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Amazon EC2' }));
    await heading();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await screen.findByRole('button', { name: 'Reopen' });
    await user.click(screen.getByRole('link', { name: 'All anomalies' }));
    expect(await screen.findByText('No open anomalies in this period')).toBeInTheDocument();
  });

  it('shows the server\'s refusal of a status change', async () => {
    const message = 'Only owners and admins can change an anomaly';
    const { user } = setup(owner, { 'PATCH /v1/anomalies/5': { status: 403, body: { message } } });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(fact('Status')).toHaveTextContent('Open');
  });

  it('gives plain users no Dismiss, Mark as expected or Reopen', async () => {
    setup(plain);
    await heading();
    expect(screen.getByRole('table', { name: 'Usage types' })).toBeInTheDocument();
    for (const name of ['Dismiss', 'Mark as expected', 'Reopen']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  it('says "No anomaly found." for an id the server does not know, or one that is not a number', async () => {
    const { callsTo, unmount } = setup(owner, { 'GET /v1/anomalies/9': { status: 404, body: { message: 'No anomaly found.' } } }, '/anomalies/9');
    expect(await screen.findByText('No anomaly found.')).toBeInTheDocument();
    expect(callsTo('GET', '/v1/anomalies/9')).toHaveLength(1);
    unmount();
    setup(owner, {}, '/anomalies/abc');
    expect(await screen.findByText('No anomaly found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All anomalies' })).toHaveAttribute('href', '/anomalies');
  });

  it('shows another failure with Retry', async () => {
    let fail = true;
    const { user } = setup(owner, {
      'GET /v1/anomalies/5': () => (fail ? { status: 500, body: { message: 'Internal server error' } } : { body: detail }),
    });
    expect(await screen.findByText('Failed to load the anomaly: Internal server error')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await heading()).toBeInTheDocument();
  });
});
