import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import type { TeamsIntegration } from '../types';

const owner = makeUser();
const plainUser = makeUser({ id: 2, role: 'user', name: 'Uma User' });

function integration(overrides: Partial<TeamsIntegration> = {}): TeamsIntegration {
  return {
    channel_id: 41,
    team_id: 'team-finops',
    team_channel_id: '19:alerts@thread.tacv2',
    team_name: 'FinOps',
    team_channel_name: 'Cost alerts',
    configured_date: '2026-11-20T09:30:00Z',
    ...overrides,
  };
}

const finops = integration();
const platform = integration({
  channel_id: 42,
  team_id: 'team-platform',
  team_channel_id: '19:general@thread.tacv2',
  team_name: 'Platform',
  team_channel_name: 'General',
  configured_date: '2026-11-24T15:00:00Z',
});

function setup(configured: MockReply, extra: Record<string, MockReply> = {}, me = owner, customer = makeCustomer()) {
  signInAs(me);
  const api = mockApi({
    ...appRoutes({ me, customer }),
    'GET /v1/api/teams/configuredchannels': configured,
    ...extra,
  });
  return { ...api, ...renderApp('/settings/integrations') };
}

const teamsTable = () => screen.findByRole('table', { name: 'MS Teams integrations' });
const firstColumn = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);

describe('Cloud Accounts: MS Teams integrations', () => {
  it('lists each channel with team name and id, channel name and id and the configured date', async () => {
    setup({ body: [platform, finops] });
    const table = await teamsTable();
    expect(screen.getByRole('heading', { name: 'MS Teams Integrations' })).toBeInTheDocument();
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Team', 'Team ID', 'Channel', 'Channel ID', 'Configured', 'Actions']);
    const row = within(table).getByTestId(`teams-${finops.channel_id}`);
    expect(within(row).getAllByRole('cell').map((c) => c.textContent).slice(0, 5)).toEqual([
      'FinOps',
      'team-finops',
      'Cost alerts',
      '19:alerts@thread.tacv2',
      expect.stringMatching(/^20 Nov 2026.*09:30.*UTC$/),
    ]);
    expect(firstColumn(table)).toEqual(['FinOps', 'Platform']);
  });

  it('sorts by every column: the same column again reverses, a new one starts ascending', async () => {
    const { user } = setup({ body: [finops, platform] });
    const table = await teamsTable();
    await user.click(within(table).getByRole('button', { name: 'Team' }));
    expect(firstColumn(table)).toEqual(['Platform', 'FinOps']);
    await user.click(within(table).getByRole('button', { name: 'Configured' }));
    expect(firstColumn(table)).toEqual(['FinOps', 'Platform']);
    await user.click(within(table).getByRole('button', { name: 'Configured' }));
    expect(firstColumn(table)).toEqual(['Platform', 'FinOps']);
    await user.click(within(table).getByRole('button', { name: 'Channel' }));
    expect(firstColumn(table)).toEqual(['FinOps', 'Platform']);
  });

  it('says none is connected when the server answers 404', async () => {
    setup({ status: 404, body: { message: 'No Microsoft Teams channel is configured' } });
    expect(await teamsTable()).toHaveTextContent('No Microsoft Teams channel connected yet.');
  });

  it('says "Failed to load Teams integration details" when the list cannot be read', async () => {
    setup({ status: 500, body: { message: 'boom' } });
    expect(await screen.findByText('Failed to load Teams integration details')).toBeInTheDocument();
  });

  it("shows the server's words when Microsoft Teams is not configured on it (503)", async () => {
    setup({ status: 503, body: { message: 'Microsoft Teams is not configured on this server' } });
    expect(await screen.findByText('Microsoft Teams is not configured on this server')).toBeInTheDocument();
    expect(screen.queryByText('Failed to load Teams integration details')).not.toBeInTheDocument();
  });

  it('removes an integration for an owner after confirmation, and the list is read again', async () => {
    let rows = [finops, platform];
    const { user, callsTo } = setup(() => (rows.length ? { body: rows } : { status: 404, body: { message: 'none' } }), {
      'DELETE /v1/api/teams/oauth/channel': (call) => {
        rows = rows.filter((r) => r.channel_id !== finops.channel_id);
        return { status: 204, body: call.body };
      },
    });
    const table = await teamsTable();
    const remove = within(table).getByRole('button', { name: 'Remove FinOps / Cost alerts' });
    await waitFor(() => expect(remove).toBeEnabled());
    await user.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Remove Teams integration' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Microsoft Teams channel FinOps / Cost alerts removed')).toBeInTheDocument();
    await waitFor(() => expect(firstColumn(screen.getByRole('table', { name: 'MS Teams integrations' }))).toEqual(['Platform']));
    const deletes = callsTo('DELETE', '/v1/api/teams/oauth/channel');
    expect(deletes.map((call) => call.query.get('channel_id'))).toEqual([String(finops.channel_id)]);
  });

  it('says "Failed to remove Teams integration" in the dialog when the removal fails', async () => {
    const { user } = setup({ body: [finops] }, { 'DELETE /v1/api/teams/oauth/channel': { status: 500, body: { message: 'boom' } } });
    const table = await teamsTable();
    const remove = within(table).getByRole('button', { name: 'Remove FinOps / Cost alerts' });
    await waitFor(() => expect(remove).toBeEnabled());
    await user.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Remove Teams integration' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('Failed to remove Teams integration')).toBeInTheDocument();
  });

  it('keeps Remove disabled for a plain user', async () => {
    setup({ body: [finops] }, {}, plainUser);
    const table = await teamsTable();
    expect(await screen.findByText('Only account owners and admins can manage cloud accounts')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Remove FinOps / Cost alerts' })).toBeDisabled();
  });

  it("lets the demo customer's owner connect and remove Teams channels (the server allows it; cloud accounts stay locked)", async () => {
    setup({ body: [finops] }, {}, owner, makeCustomer({ id: 7 }));
    const table = await teamsTable();
    expect(await screen.findByText('Cloud accounts cannot be changed in the demo')).toBeInTheDocument();
    await waitFor(() => expect(within(table).getByRole('button', { name: 'Remove FinOps / Cost alerts' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Connect MS Teams' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Connect AWS' })).toBeDisabled();
  });
});
