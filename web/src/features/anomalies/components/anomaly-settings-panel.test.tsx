import { screen, waitFor, within } from '@testing-library/react';
import type { User } from '@/api/types';
import { appRoutes, makeAccount, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { makeList, makeSettings } from '../testing/make-anomaly';
import type { AnomalySettings, Channel } from '../types';

const owner = makeUser({ id: 1, role: 'owner' });
const admin = makeUser({ id: 2, name: 'Adam Admin', email: 'adam@example.com', role: 'admin' });

const channel = (id: number, name: string): Channel => ({
  id,
  type: 'slack',
  name,
  targetHint: 'https://hooks.slack.com/…',
  createdAt: '2026-11-01T10:00:00Z',
  lastDelivery: null,
});
const CHANNELS = [channel(1, 'Team alerts'), channel(2, 'FinOps room')];

function setup(me: User, { settings = makeSettings(), extra = {} }: { settings?: AnomalySettings; extra?: Record<string, MockReply> } = {}) {
  signInAs(me);
  const api = mockApi({
    ...appRoutes({ me, accounts: [makeAccount()] }),
    'GET /v1/anomalies': { body: makeList([]) },
    'GET /v1/anomalies/settings': { body: settings },
    'PUT /v1/anomalies/settings': (call) => ({ body: call.body }),
    'GET /v1/channels': { body: CHANNELS },
    'POST /v2/cost/filters': { body: { tags: { team: ['data', 'web'], env: ['prod'], CostCenter: [] } } },
    ...extra,
  });
  return { ...api, ...renderApp('/anomalies') };
}

const form = () => screen.findByRole('form', { name: 'Detection settings' });

describe('anomalies page: detection settings', () => {
  it('shows the relative threshold as a percentage and the stored tag keys and channels', async () => {
    setup(owner, { settings: makeSettings({ relativeThreshold: 0.07, absoluteThreshold: 250, tagKeys: ['team'], channelIds: [2] }) });
    const settings = await form();
    expect(within(settings).getByLabelText('Relative threshold')).toHaveValue(7);
    expect(within(settings).getByLabelText('Absolute threshold')).toHaveValue(250);
    expect(within(settings).getByRole('button', { name: 'team' })).toBeInTheDocument();
    await waitFor(() => expect(within(settings).getByRole('button', { name: 'FinOps room' })).toBeInTheDocument());
  });

  it('sends the percentage as a fraction, with the chosen tag keys and channels', async () => {
    const { user, callsTo } = setup(admin);
    const settings = await form();
    const relative = within(settings).getByLabelText('Relative threshold');
    await user.clear(relative);
    await user.type(relative, '35');
    const absolute = within(settings).getByLabelText('Absolute threshold');
    await user.clear(absolute);
    await user.type(absolute, '50.5');

    await user.click(within(settings).getByLabelText('Monitored tag keys'));
    const keys = await screen.findByRole('listbox');
    expect(within(keys).getAllByRole('option').map((o) => o.textContent)).toEqual(['CostCenter', 'env', 'team']);
    await user.click(within(keys).getByRole('option', { name: 'team' }));
    await user.keyboard('{Escape}');

    await user.click(within(settings).getByLabelText('Channels'));
    await user.click(await screen.findByRole('option', { name: 'Team alerts' }));
    await user.keyboard('{Escape}');

    await user.click(within(settings).getByRole('button', { name: 'Save settings' }));
    expect(await within(settings).findByText('Anomaly settings saved')).toBeInTheDocument();
    expect(callsTo('PUT', '/v1/anomalies/settings')[0].body).toEqual({
      relativeThreshold: 0.35,
      absoluteThreshold: 50.5,
      tagKeys: ['team'],
      channelIds: [1],
    });
  });

  it.each([
    ['relativeThreshold', 'Relative threshold', 'The relative threshold must be between 0 and 10 (0 % to 1000 %)'],
    ['absoluteThreshold', 'Absolute threshold', 'The absolute threshold must be between 0 and 1000000000'],
    ['tagKeys', 'Monitored tag keys', 'Monitor at most 5 tag keys'],
    ['channelIds', 'Channels', 'Unknown channel'],
  ])('shows the server\'s 422 on %s under "%s"', async (field, label, message) => {
    const { user } = setup(owner, {
      extra: { 'PUT /v1/anomalies/settings': { status: 422, body: { message, details: { [field]: [message] } } } },
    });
    const settings = await form();
    await user.click(within(settings).getByRole('button', { name: 'Save settings' }));
    const input = within(settings).getByLabelText(label);
    await waitFor(() => expect(input).toHaveAccessibleDescription(message));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(within(settings).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(settings).queryByText('Anomaly settings saved')).not.toBeInTheDocument();
  });

  it('shows a refusal that names no field above the form', async () => {
    const message = 'Only owners and admins can change anomaly settings';
    const { user } = setup(owner, { extra: { 'PUT /v1/anomalies/settings': { status: 403, body: { message } } } });
    const settings = await form();
    await user.click(within(settings).getByRole('button', { name: 'Save settings' }));
    expect(await within(settings).findByRole('alert')).toHaveTextContent(message);
  });

  it('stops a threshold that is not a number before sending', async () => {
    const { user, callsTo } = setup(owner);
    const settings = await form();
    await user.clear(within(settings).getByLabelText('Relative threshold'));
    await user.click(within(settings).getByRole('button', { name: 'Save settings' }));
    expect(within(settings).getByLabelText('Relative threshold')).toHaveAccessibleDescription('Enter a number');
    expect(callsTo('PUT', '/v1/anomalies/settings')).toHaveLength(0);
  });
});
