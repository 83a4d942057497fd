import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { makeChannel } from '../testing/make-channel';
import type { Channel } from '../types';

// A channel of type `teams` is made by "Connect MS Teams" (docs/NOTIFICATIONS.md "Microsoft Teams
// through Microsoft Graph"): listed and removable here like any other, never offered in Add channel.

const owner = makeUser({ id: 1, role: 'owner' });
const graphTeams = makeChannel({ id: 9, type: 'teams', name: 'Teams: FinOps / Cost alerts', targetHint: 'FinOps / Cost alerts' });
const slack = makeChannel({ id: 1, type: 'slack', name: 'Team alerts' });

function setup(extra: Record<string, MockReply> = {}) {
  signInAs(owner);
  const api = mockApi({
    ...appRoutes({ me: owner }),
    'GET /v1/channels': { body: [slack, graphTeams] },
    'GET /v1/notifications/deliveries': { body: [] },
    ...extra,
  });
  return { ...api, ...renderApp('/settings/notifications') };
}

const channelsTable = () => screen.findByRole('table', { name: 'Notification channels' });

describe('notifications page: a Microsoft Teams (Graph) channel', () => {
  it('is listed with the type "Microsoft Teams" and its team and channel names', async () => {
    setup();
    const row = within(await channelsTable()).getByRole('row', { name: /Teams: FinOps \/ Cost alerts/ });
    const cells = within(row).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent(/^Microsoft Teams$/);
    expect(cells[2]).toHaveTextContent('FinOps / Cost alerts');
  });

  it('is not offered in Add channel', async () => {
    const { user } = setup();
    await channelsTable();
    await user.click(screen.getByRole('button', { name: 'Add channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add channel' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['E-mail', 'Slack', 'Teams workflow', 'Webhook']);
  });

  it('is removed like any other channel', async () => {
    let channels: Channel[] = [slack, graphTeams];
    const { user, callsTo } = setup({
      'GET /v1/channels': () => ({ body: channels }),
      'DELETE /v1/channels/9': () => {
        channels = [slack];
        return { status: 204 };
      },
    });
    await channelsTable();
    await user.click(screen.getByRole('button', { name: 'Remove Teams: FinOps / Cost alerts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove channel' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Channel "Teams: FinOps / Cost alerts" removed');
    expect(callsTo('DELETE', '/v1/channels/9')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: /Teams: FinOps/ })).not.toBeInTheDocument());
  });
});
