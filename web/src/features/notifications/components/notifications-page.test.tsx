import { act, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@/api/types';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { makeChannel, makeDelivery, minutesAgo } from '../testing/make-channel';
import type { Channel, Delivery } from '../types';

const owner = makeUser({ id: 1, role: 'owner' });
const admin = makeUser({ id: 2, name: 'Adam Admin', email: 'adam@example.com', role: 'admin' });
const plain = makeUser({ id: 3, name: 'Uma User', email: 'uma@example.com', role: 'user' });

const slack = makeChannel({
  id: 1,
  type: 'slack',
  name: 'Team alerts',
  targetHint: 'https://hooks.slack.com/…',
  lastDelivery: { at: minutesAgo(5), status: 'delivered', error: null },
});
const mail = makeChannel({ id: 2, type: 'email', name: 'FinOps mail', targetHint: 'finops@example.com', lastDelivery: null });
const teams = makeChannel({
  id: 3,
  type: 'teams_webhook',
  name: 'Teams cost',
  targetHint: 'https://prod.westeurope.logic.azure.com/…',
  lastDelivery: { at: minutesAgo(120), status: 'failed', error: 'HTTP 404 from the receiver' },
});
const hook = makeChannel({ id: 4, type: 'webhook', name: 'Ledger hook', targetHint: 'https://ledger.example.com/…' });

interface Lists {
  channels?: Channel[];
  deliveries?: Delivery[];
}

function setup(me: User, extra: Record<string, MockReply> = {}, { channels = [slack, mail, teams, hook], deliveries = [] }: Lists = {}) {
  signInAs(me);
  const api = mockApi({
    ...appRoutes({ me }),
    'GET /v1/channels': { body: channels },
    'GET /v1/notifications/deliveries': { body: deliveries },
    ...extra,
  });
  const rendered = renderApp('/settings/notifications');
  return { ...api, ...rendered };
}

/** A channel list the create and delete routes change, as the server's would. */
function liveChannels(initial: Channel[]) {
  let channels = [...initial];
  return {
    get: () => ({ body: channels }),
    add: (channel: Channel) => {
      channels = [...channels, channel];
    },
    remove: (id: number) => {
      channels = channels.filter((c) => c.id !== id);
    },
  };
}

const channelsTable = () => screen.findByRole('table', { name: 'Notification channels' });
const rowOf = (table: HTMLElement, name: string) => within(table).getByRole('row', { name: new RegExp(name) });

async function openAddDialog(rendered: ReturnType<typeof setup>) {
  await channelsTable();
  await rendered.user.click(screen.getByRole('button', { name: 'Add channel' }));
  return screen.findByRole('dialog', { name: 'Add channel' });
}

async function chooseType(rendered: ReturnType<typeof setup>, dialog: HTMLElement, label: string) {
  await rendered.user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
  await rendered.user.click(await screen.findByRole('option', { name: label }));
}

describe('notifications page: channels', () => {
  it('lists each channel with its type, target hint and last delivery', async () => {
    setup(owner);
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeInTheDocument();
    const table = await channelsTable();
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'Name',
      'Type',
      'Target',
      'Last delivery',
      'Actions',
    ]);
    expect(rows).toHaveLength(5);

    const slackRow = rowOf(table, 'Team alerts');
    expect(slackRow).toHaveTextContent('Slack');
    expect(slackRow).toHaveTextContent('https://hooks.slack.com/…');
    expect(slackRow).toHaveTextContent('5 minutes ago');
    expect(within(slackRow).getByText('Delivered')).toBeInTheDocument();

    const mailRow = rowOf(table, 'FinOps mail');
    expect(mailRow).toHaveTextContent('E-mail');
    expect(mailRow).toHaveTextContent('finops@example.com');
    expect(mailRow).toHaveTextContent('Never');

    expect(rowOf(table, 'Teams cost')).toHaveTextContent('Teams workflow');
    expect(rowOf(table, 'Ledger hook')).toHaveTextContent('Webhook');
  });

  it('shows a failed last delivery with its error in a tooltip', async () => {
    const { user } = setup(owner);
    const row = rowOf(await channelsTable(), 'Teams cost');
    expect(row).toHaveTextContent('about 2 hours ago');
    await user.hover(within(row).getByText('Failed'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('HTTP 404 from the receiver');
  });

  it('explains what channels do when there is none, with an "Add channel" button', async () => {
    const { user } = setup(owner, {}, { channels: [] });
    expect(await screen.findByText('No channels yet')).toBeInTheDocument();
    expect(screen.getByText(/receives every budget alert of this account/)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Notification channels' })).not.toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: 'Add channel' });
    expect(buttons).toHaveLength(1);
    await user.click(buttons[0]);
    expect(await screen.findByRole('dialog', { name: 'Add channel' })).toBeInTheDocument();
  });

  it('says when the channels cannot be loaded and retries', async () => {
    let fail = true;
    const { user } = setup(owner, {
      'GET /v1/channels': () => (fail ? { status: 500, body: { message: 'Internal server error' } } : { body: [slack] }),
    });
    expect(await screen.findByText('Failed to load notification channels: Internal server error')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(rowOf(await channelsTable(), 'Team alerts')).toBeInTheDocument();
  });

  it('gives admins Add channel, Send test and Remove', async () => {
    setup(admin);
    await channelsTable();
    expect(screen.getByRole('button', { name: 'Add channel' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Send test to Team alerts' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Remove Team alerts' })).toBeEnabled();
    expect(screen.queryByText('Only owners and admins can add, test or remove channels.')).not.toBeInTheDocument();
  });

  it('shows plain users the channels with Add channel, Send test and Remove disabled', async () => {
    setup(plain);
    await channelsTable();
    expect(screen.getByText('Only owners and admins can add, test or remove channels.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add channel' })).toBeDisabled();
    for (const name of ['Team alerts', 'FinOps mail', 'Teams cost', 'Ledger hook']) {
      expect(screen.getByRole('button', { name: `Send test to ${name}` })).toBeDisabled();
      expect(screen.getByRole('button', { name: `Remove ${name}` })).toBeDisabled();
    }
  });

  it('disables the empty state\'s Add channel for plain users', async () => {
    setup(plain, {}, { channels: [] });
    expect(await screen.findByText('No channels yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add channel' })).toBeDisabled();
  });

  it('is reached from the user menu\'s Notifications entry', async () => {
    signInAs(owner);
    mockApi({ ...appRoutes({ me: owner }), 'GET /v1/channels': { body: [] }, 'GET /v1/notifications/deliveries': { body: [] } });
    const { user } = renderApp('/welcome');
    await user.click(await screen.findByRole('button', { name: 'Open user menu' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Notifications' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/settings/notifications');
  });
});

describe('notifications page: add channel', () => {
  it('names the target by type and asks for a secret only for webhooks', async () => {
    const rendered = setup(owner);
    const dialog = await openAddDialog(rendered);
    expect(within(dialog).getByLabelText('Webhook URL')).toBeInTheDocument();
    await chooseType(rendered, dialog, 'E-mail');
    expect(within(dialog).getByLabelText('E-mail address')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Secret')).not.toBeInTheDocument();
    await chooseType(rendered, dialog, 'Teams workflow');
    expect(within(dialog).getByLabelText('Webhook URL')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Secret')).not.toBeInTheDocument();
    await chooseType(rendered, dialog, 'Webhook');
    expect(within(dialog).getByLabelText('Secret')).toBeInTheDocument();
    expect(within(dialog).getByText('Leave empty to have one generated')).toBeInTheDocument();
  });

  it('asks for a type and a name before sending', async () => {
    const rendered = setup(owner);
    const dialog = await openAddDialog(rendered);
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Add channel' }));
    expect(await within(dialog).findByText('Choose a channel type: email, slack, teams_webhook or webhook')).toBeInTheDocument();
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(rendered.callsTo('POST', '/v1/channels')).toHaveLength(0);
  });

  it.each([
    ['Slack', 'name', 'Name must be at most 100 characters', 'a'.repeat(101)],
    ['E-mail', 'target', 'Enter a valid email address', 'not-an-address'],
    ['Slack', 'target', 'Enter a URL that starts with https://', 'http://hooks.example.com/x'],
    ['Teams workflow', 'target', 'The URL must be at most 2048 characters', `https://example.com/${'a'.repeat(2030)}`],
    ['Webhook', 'secret', 'The secret must be 16 to 256 characters', 'too-short'],
  ])('with type %s, sends the %s to the server and shows its 422 "%s" on that field', async (typeLabel, field, message, value) => {
    // The server judges the rule (docs/NOTIFICATIONS.md); the form has no copy of it.
    const rendered = setup(owner, {
      'POST /v1/channels': { status: 422, body: { message, details: { [field]: [message] } } },
    });
    const dialog = await openAddDialog(rendered);
    await chooseType(rendered, dialog, typeLabel);
    const target = typeLabel === 'E-mail' ? 'E-mail address' : 'Webhook URL';
    const values: Record<string, string> = { name: 'Ops', target: typeLabel === 'E-mail' ? 'ops@example.com' : 'https://hooks.example.com/x' };
    values[field] = value;
    // Long values are pasted: typing 2000 characters one by one would take long.
    await rendered.user.click(within(dialog).getByLabelText('Name'));
    await rendered.user.paste(values.name);
    await rendered.user.click(within(dialog).getByLabelText(target));
    await rendered.user.paste(values.target);
    if (field === 'secret') {
      await rendered.user.click(within(dialog).getByLabelText('Secret'));
      await rendered.user.paste(value);
    }
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Add channel' }));
    const label = { name: 'Name', target, secret: 'Secret' }[field] as string;
    const input = within(dialog).getByLabelText(label);
    await waitFor(() => expect(input).toHaveAccessibleDescription(message));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    const sent = rendered.callsTo('POST', '/v1/channels');
    expect(sent).toHaveLength(1);
    expect((sent[0].body as Record<string, string>)[field]).toBe(value);
  });

  it('creates a Slack channel, confirms, and lists it', async () => {
    const list = liveChannels([slack]);
    const created = makeChannel({ id: 9, type: 'slack', name: 'Cost room', targetHint: 'https://hooks.slack.com/…' });
    const rendered = setup(owner, {
      'GET /v1/channels': list.get,
      'POST /v1/channels': () => {
        list.add(created);
        return { status: 201, body: created };
      },
    });
    const dialog = await openAddDialog(rendered);
    await chooseType(rendered, dialog, 'Slack');
    await rendered.user.type(within(dialog).getByLabelText('Name'), '  Cost room ');
    await rendered.user.type(within(dialog).getByLabelText('Webhook URL'), 'https://hooks.slack.com/services/T1/B2/abc');
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Add channel' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Channel "Cost room" added');
    expect(rendered.callsTo('POST', '/v1/channels')[0].body).toEqual({
      type: 'slack',
      name: 'Cost room',
      target: 'https://hooks.slack.com/services/T1/B2/abc',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add channel' })).not.toBeInTheDocument());
    expect(await within(await channelsTable()).findByRole('row', { name: /Cost room/ })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: /Signing secret/ })).not.toBeInTheDocument();
  });

  it('shows the server\'s 422 details on their fields', async () => {
    const smtp = 'E-mail channels need SMTP configured on the server';
    const rendered = setup(owner, {
      'POST /v1/channels': { status: 422, body: { message: smtp, details: { target: [smtp] } } },
    });
    const dialog = await openAddDialog(rendered);
    await chooseType(rendered, dialog, 'E-mail');
    await rendered.user.type(within(dialog).getByLabelText('Name'), 'FinOps');
    await rendered.user.type(within(dialog).getByLabelText('E-mail address'), 'finops@example.com');
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Add channel' }));
    const field = within(dialog).getByLabelText('E-mail address');
    await waitFor(() => expect(field).toHaveAccessibleDescription(smtp));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a 422 that names no field of the form above it (the tenant\'s channel limit)', async () => {
    const limit = 'A tenant may have at most 20 channels';
    const rendered = setup(owner, { 'POST /v1/channels': { status: 422, body: { message: limit, details: { channels: [limit] } } } });
    const dialog = await openAddDialog(rendered);
    await chooseType(rendered, dialog, 'Slack');
    await rendered.user.type(within(dialog).getByLabelText('Name'), 'One too many');
    await rendered.user.type(within(dialog).getByLabelText('Webhook URL'), 'https://hooks.slack.com/x');
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Add channel' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(limit);
  });

  it('puts a 409 on the Name field', async () => {
    const taken = 'A channel named "Team alerts" already exists';
    const rendered = setup(owner, { 'POST /v1/channels': { status: 409, body: { message: taken } } });
    const dialog = await openAddDialog(rendered);
    await chooseType(rendered, dialog, 'Slack');
    await rendered.user.type(within(dialog).getByLabelText('Name'), 'Team alerts');
    await rendered.user.type(within(dialog).getByLabelText('Webhook URL'), 'https://hooks.slack.com/y');
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Add channel' }));
    const name = within(dialog).getByLabelText('Name');
    await waitFor(() => expect(name).toHaveAccessibleDescription(taken));
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a generated webhook secret once, with a copy button', async () => {
    const secret = `whsec_${'0123456789abcdef'.repeat(3)}`;
    const list = liveChannels([slack]);
    const created = { ...hook, id: 12, secret };
    const rendered = setup(owner, {
      'GET /v1/channels': list.get,
      'POST /v1/channels': () => {
        list.add(hook);
        return { status: 201, body: created };
      },
    });
    const dialog = await openAddDialog(rendered);
    await chooseType(rendered, dialog, 'Webhook');
    await rendered.user.type(within(dialog).getByLabelText('Name'), 'Ledger hook');
    await rendered.user.type(within(dialog).getByLabelText('Webhook URL'), 'https://ledger.example.com/in');
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Add channel' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Signing secret of Ledger hook' });
    expect(rendered.callsTo('POST', '/v1/channels')[0].body).toEqual({
      type: 'webhook',
      name: 'Ledger hook',
      target: 'https://ledger.example.com/in',
    });
    expect(within(secretDialog).getByText('Copy this secret now: it is not shown again.')).toBeInTheDocument();
    expect(within(secretDialog).getByRole('textbox', { name: 'Signing secret' })).toHaveValue(secret);
    await rendered.user.click(within(secretDialog).getByRole('button', { name: 'Copy secret' }));
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe(secret);
    expect(within(secretDialog).getByRole('button', { name: 'Copied' })).toBeInTheDocument();

    await rendered.user.click(within(secretDialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Signing secret/ })).not.toBeInTheDocument());
    expect(screen.queryByText(secret)).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
  });

  it('sends a secret the person chose and does not show it back', async () => {
    const chosen = 'my-own-shared-secret-1234';
    const rendered = setup(owner, { 'POST /v1/channels': { status: 201, body: { ...hook, id: 13, secret: chosen } } });
    const dialog = await openAddDialog(rendered);
    await chooseType(rendered, dialog, 'Webhook');
    await rendered.user.type(within(dialog).getByLabelText('Name'), 'Ledger hook');
    await rendered.user.type(within(dialog).getByLabelText('Webhook URL'), 'https://ledger.example.com/in');
    await rendered.user.type(within(dialog).getByLabelText('Secret'), chosen);
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Add channel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Channel "Ledger hook" added');
    expect(rendered.callsTo('POST', '/v1/channels')[0].body).toEqual({
      type: 'webhook',
      name: 'Ledger hook',
      target: 'https://ledger.example.com/in',
      secret: chosen,
    });
    expect(screen.queryByRole('dialog', { name: /Signing secret/ })).not.toBeInTheDocument();
  });
});

describe('notifications page: send test and remove', () => {
  it('says when the test message was delivered', async () => {
    const { user, callsTo } = setup(owner, { 'POST /v1/channels/1/test': { body: { delivered: true } } });
    await channelsTable();
    await user.click(screen.getByRole('button', { name: 'Send test to Team alerts' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Test message delivered to Team alerts');
    expect(callsTo('POST', '/v1/channels/1/test')).toHaveLength(1);
  });

  it('shows the server\'s reason when the test message was not delivered', async () => {
    const reason = 'The test message was not delivered: the receiver answered HTTP 403';
    const { user } = setup(owner, { 'POST /v1/channels/3/test': { status: 502, body: { message: reason } } });
    await channelsTable();
    await user.click(screen.getByRole('button', { name: 'Send test to Teams cost' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent(reason);
    expect(toast.className).toMatch(/Error/);
  });

  it('asks before removing a channel, then removes it', async () => {
    const list = liveChannels([slack, mail]);
    const { user, callsTo } = setup(owner, {
      'GET /v1/channels': list.get,
      'DELETE /v1/channels/2': () => {
        list.remove(2);
        return { status: 204 };
      },
    });
    await channelsTable();
    await user.click(screen.getByRole('button', { name: 'Remove FinOps mail' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove channel' });
    expect(dialog).toHaveTextContent('FinOps mail');
    expect(dialog).toHaveTextContent('finops@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove channel' })).not.toBeInTheDocument());
    expect(callsTo('DELETE', '/v1/channels/2')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remove FinOps mail' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove channel' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Channel "FinOps mail" removed');
    expect(callsTo('DELETE', '/v1/channels/2')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: /FinOps mail/ })).not.toBeInTheDocument());
    expect(screen.getByRole('row', { name: /Team alerts/ })).toBeInTheDocument();
  });

  it('keeps the dialog open with the server\'s message when the removal fails', async () => {
    const { user } = setup(owner, { 'DELETE /v1/channels/2': { status: 404, body: { message: 'Channel not found' } } });
    await channelsTable();
    await user.click(screen.getByRole('button', { name: 'Remove FinOps mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove channel' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Channel not found');
  });
});

describe('notifications page: recent deliveries', () => {
  // Built when each test starts, so that the relative times do not drift on a slow run.
  const recentDeliveries = () => [
    makeDelivery({ id: 4, status: 'pending', attempts: 0, channelName: 'Ledger hook', title: 'Budget "Data" crossed 100 %', createdAt: minutesAgo(1), deliveredAt: null }),
    makeDelivery({
      id: 3,
      status: 'retrying',
      attempts: 2,
      channelName: 'Teams cost',
      title: 'Budget "Data" crossed 80 %',
      lastError: 'HTTP 503 from the receiver',
      nextAttemptAt: new Date(Date.now() + 4 * 60_000).toISOString(),
      deliveredAt: null,
      createdAt: minutesAgo(10),
    }),
    makeDelivery({ id: 2, status: 'delivered', attempts: 1, channelName: 'Team alerts', title: 'Budget "Production" crossed 80 %', createdAt: minutesAgo(30) }),
    makeDelivery({
      id: 1,
      status: 'failed',
      attempts: 8,
      channelName: 'Old channel',
      title: 'Budget "Production" crossed 50 %',
      lastError: 'connection refused',
      deliveredAt: null,
      createdAt: minutesAgo(60 * 26),
    }),
  ];

  it('lists the latest 50 deliveries with their status, attempts and last error', async () => {
    const { fetchMock } = setup(owner, {}, { deliveries: recentDeliveries() });
    const table = await screen.findByRole('table', { name: 'Recent deliveries' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'When',
      'Event',
      'Channel',
      'Status',
      'Attempts',
      'Last error',
    ]);
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(cells(rows[1])).toEqual(['1 minute ago', 'Budget "Data" crossed 100 %', 'Ledger hook', 'Pending', '0', '—']);
    expect(cells(rows[2])).toEqual(['10 minutes ago', 'Budget "Data" crossed 80 %', 'Teams cost', 'Retrying', '2', 'HTTP 503 from the receiver']);
    expect(cells(rows[3])).toEqual(['30 minutes ago', 'Budget "Production" crossed 80 %', 'Team alerts', 'Delivered', '1', '—']);
    expect(cells(rows[4])).toEqual(['1 day ago', 'Budget "Production" crossed 50 %', 'Old channel', 'Failed', '8', 'connection refused']);

    const urls = fetchMock.mock.calls.map(([request]) => new URL((request as Request).url));
    const asked = urls.filter((url) => url.pathname === '/v1/notifications/deliveries');
    expect(asked.map((url) => url.searchParams.get('limit'))).toEqual(['50']);
  });

  it('tells when a retrying delivery is tried next', async () => {
    const { user } = setup(owner, {}, { deliveries: recentDeliveries() });
    const table = await screen.findByRole('table', { name: 'Recent deliveries' });
    await user.hover(within(table).getByText('Retrying'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Next attempt in 4 minutes');
  });

  it('says when nothing was delivered yet', async () => {
    setup(owner, {}, { deliveries: [] });
    expect(await screen.findByText(/No deliveries yet/)).toBeInTheDocument();
  });

  it('says when the deliveries cannot be loaded', async () => {
    setup(owner, { 'GET /v1/notifications/deliveries': { status: 500, body: { message: 'Internal server error' } } });
    expect(await screen.findByText('Failed to load recent deliveries: Internal server error')).toBeInTheDocument();
  });

  it('re-reads the deliveries every 30 s while the page is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const deliveries = recentDeliveries();
    let answer: Delivery[] = [deliveries[1]];
    const { callsTo } = setup(owner, { 'GET /v1/notifications/deliveries': () => ({ body: answer }) });
    const table = await screen.findByRole('table', { name: 'Recent deliveries' });
    expect(within(table).getByText('Retrying')).toBeInTheDocument();
    const before = callsTo('GET', '/v1/notifications/deliveries').length;

    answer = [{ ...deliveries[1], status: 'delivered', attempts: 3, lastError: null, deliveredAt: new Date().toISOString() }];
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    await waitFor(() => expect(callsTo('GET', '/v1/notifications/deliveries').length).toBe(before + 1));
    expect(await within(screen.getByRole('table', { name: 'Recent deliveries' })).findByText('Delivered')).toBeInTheDocument();
  });
});
