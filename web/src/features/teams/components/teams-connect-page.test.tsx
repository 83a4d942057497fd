import { act, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@/api/types';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { AUTH_URL, PENDING_CHANNEL_ID, teamsConnectRoutes } from '../testing/teams-routes';
import { goToSignIn } from '../utils/browser';
import { pendingChannel, rememberPendingChannel } from '../utils/pending-channel';

vi.mock('../utils/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../utils/browser')>()),
  goToSignIn: vi.fn(),
}));

const admin = makeUser({ id: 2, name: 'Adam Admin', email: 'adam@example.com', role: 'admin' });
const plain = makeUser({ id: 3, name: 'Uma User', email: 'uma@example.com', role: 'user' });

function setup(route: string, { me = admin, extra = {} }: { me?: User; extra?: Record<string, MockReply> } = {}) {
  signInAs(me);
  const api = mockApi({ ...appRoutes({ me }), ...teamsConnectRoutes(extra) });
  return { ...api, ...renderApp(route) };
}

const location = () => screen.getByTestId('location');
const heading = () => screen.findByRole('heading', { level: 1, name: 'Connect Microsoft Teams' });
const alertWith = (text: string) => screen.findByText(text, { selector: '.MuiAlert-message' });

beforeEach(() => vi.mocked(goToSignIn).mockClear());

describe('Teams connect: Connect', () => {
  it('signs in with Microsoft: asks for the sign-in URL with the return page, keeps the channel id, leaves for Microsoft', async () => {
    const { user, callsTo } = setup('/settings/ms-teams-connect');
    await heading();
    await user.click(screen.getByRole('button', { name: 'Connect with Microsoft Teams' }));
    await waitFor(() => expect(goToSignIn).toHaveBeenCalledWith(AUTH_URL));
    const logins = callsTo('GET', '/v1/api/teams/oauth/login');
    expect(logins.map((call) => call.query.get('redirect_uri'))).toEqual([`${window.location.origin}/teams-oauth-callback`]);
    expect(pendingChannel()).toBe(PENDING_CHANNEL_ID);
  });

  it('goes back to the integrations with "Back to Integrations"', async () => {
    const { user } = setup('/settings/ms-teams-connect');
    await heading();
    await user.click(screen.getByRole('button', { name: 'Back to Integrations' }));
    await waitFor(() => expect(location()).toHaveTextContent('/settings/integrations'));
  });

  it('says "Invalid authentication response from server" when the answer has no auth_url', async () => {
    const { user } = setup('/settings/ms-teams-connect', {
      extra: { 'GET /v1/api/teams/oauth/login': { body: { channel_id: PENDING_CHANNEL_ID } } },
    });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Connect with Microsoft Teams' }));
    expect(await alertWith('Failed to initiate connection: Invalid authentication response from server')).toBeInTheDocument();
    expect(goToSignIn).not.toHaveBeenCalled();
    expect(pendingChannel()).toBeNull();
  });

  it('says so when Microsoft Teams is not configured on the server (503)', async () => {
    const { user } = setup('/settings/ms-teams-connect', {
      extra: { 'GET /v1/api/teams/oauth/login': { status: 503, body: { message: 'Microsoft Teams is not configured on this server' } } },
    });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Connect with Microsoft Teams' }));
    expect(await alertWith('Failed to initiate connection: Microsoft Teams is not configured on this server')).toBeInTheDocument();
    expect(goToSignIn).not.toHaveBeenCalled();
  });

  it('keeps Connect disabled for a plain user, with the reason', async () => {
    setup('/settings/ms-teams-connect', { me: plain });
    await heading();
    expect(await screen.findByText('Only account owners and admins can connect Microsoft Teams.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect with Microsoft Teams' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Back to Integrations' })).toBeEnabled();
  });
});

describe('Teams connect: the return from the sign-in', () => {
  it('auth=success: says so, cleans the URL and offers the teams', async () => {
    rememberPendingChannel(PENDING_CHANNEL_ID);
    setup('/settings/ms-teams-connect?auth=success');
    expect(await alertWith('Successfully connected to Microsoft Teams!')).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveAttribute('data-search', ''));
    expect(location()).toHaveTextContent('/settings/ms-teams-connect');
    expect(await screen.findByRole('combobox', { name: 'Team' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Integrations' })).toBeInTheDocument();
  });

  it('auth=success without a kept channel id: the authentication error, back to Connect', async () => {
    setup('/settings/ms-teams-connect?auth=success');
    expect(await alertWith('Authentication error: No channel ID found. Please try reconnecting.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect with Microsoft Teams' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveAttribute('data-search', ''));
  });

  it.each(['cancelled', 'error', 'timeout'])('auth=%s: "Failed to connect to Microsoft Teams.", back to Connect', async (auth) => {
    rememberPendingChannel(PENDING_CHANNEL_ID);
    setup(`/settings/ms-teams-connect?auth=${auth}`);
    expect(await alertWith('Failed to connect to Microsoft Teams.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect with Microsoft Teams' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveAttribute('data-search', ''));
  });

  it.each(['manual', 'nojs'])('auth=%s (a fallback link of the return page): the picker, without a success notice', async (auth) => {
    rememberPendingChannel(PENDING_CHANNEL_ID);
    setup(`/settings/ms-teams-connect?auth=${auth}`);
    expect(await screen.findByRole('combobox', { name: 'Team' })).toBeInTheDocument();
    expect(screen.queryByText('Successfully connected to Microsoft Teams!')).not.toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveAttribute('data-search', ''));
  });

  it('an unknown auth value is ignored: Connect', async () => {
    rememberPendingChannel(PENDING_CHANNEL_ID);
    setup('/settings/ms-teams-connect?auth=bogus');
    expect(await screen.findByRole('button', { name: 'Connect with Microsoft Teams' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

async function openPicker(extra: Record<string, MockReply> = {}) {
  rememberPendingChannel(PENDING_CHANNEL_ID);
  const rendered = setup('/settings/ms-teams-connect?auth=success', { extra });
  return rendered;
}

async function choose(user: ReturnType<typeof setup>['user'], field: string, option: string) {
  await user.click(await screen.findByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Teams connect: team and channel', () => {
  it('keeps Continue disabled with the message until both are chosen, then completes and returns after 10 s', async () => {
    const { user, callsTo } = await openPicker();
    await screen.findByRole('combobox', { name: 'Team' });
    const cont = screen.getByRole('button', { name: 'Continue' });
    expect(cont).toBeDisabled();
    expect(screen.getByText('Please select both a Team and a Channel before proceeding.')).toBeInTheDocument();

    await choose(user, 'Team', 'FinOps');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    expect(screen.getByText('Please select both a Team and a Channel before proceeding.')).toBeInTheDocument();
    await choose(user, 'Channel', 'Cost alerts');
    expect(screen.queryByText('Please select both a Team and a Channel before proceeding.')).not.toBeInTheDocument();

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const done = await screen.findByRole('status');
    expect(within(done).getByRole('heading', { name: 'Microsoft Teams Connected' })).toBeInTheDocument();
    expect(done).toHaveTextContent('Team: FinOps');
    expect(done).toHaveTextContent('Channel: Cost alerts');
    expect(done).toHaveTextContent(/Redirecting in (10|9) seconds/);
    expect(screen.queryByRole('button', { name: 'Back to Integrations' })).not.toBeInTheDocument();
    expect(
      callsTo('POST', `/v1/api/teams/oauth/channel/${PENDING_CHANNEL_ID}/teams/team-finops/channels/${encodeURIComponent('19:alerts@thread.tacv2')}`),
    ).toHaveLength(1);
    expect(pendingChannel()).toBeNull();
    // The picker's Graph lists are not read again once the channel is chosen.
    expect(callsTo('GET', `/v1/api/teams/oauth/channel/${PENDING_CHANNEL_ID}/teams`)).toHaveLength(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(9_000);
    });
    expect(location()).toHaveTextContent('/settings/ms-teams-connect');
    expect(done).toHaveTextContent(/Redirecting in 1 second\b/);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_100);
    });
    await waitFor(() => expect(location()).toHaveTextContent('/settings/integrations'));
  });

  it('says "No teams found…" when the account has no teams', async () => {
    await openPicker({ [`GET /v1/api/teams/oauth/channel/${PENDING_CHANNEL_ID}/teams`]: { body: [] } });
    expect(await screen.findByText('No teams found in your Microsoft Teams account...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Integrations' })).toBeInTheDocument();
  });

  it('says "No channels found…" for a team without channels', async () => {
    const { user } = await openPicker();
    await choose(user, 'Team', 'Platform');
    expect(await screen.findByText('No channels found in the selected team...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it('shows the server message when the teams cannot be read', async () => {
    await openPicker({
      [`GET /v1/api/teams/oauth/channel/${PENDING_CHANNEL_ID}/teams`]: {
        status: 502,
        body: { message: 'Access token has expired or is not yet valid.' },
      },
    });
    expect(await screen.findByText('Failed to fetch teams/channels: Access token has expired or is not yet valid.')).toBeInTheDocument();
  });

  it('offers "Connect again" when the sign-in cannot be used any more', async () => {
    const { user } = await openPicker({
      [`GET /v1/api/teams/oauth/channel/${PENDING_CHANNEL_ID}/teams`]: {
        status: 400,
        body: { message: 'The Microsoft sign-in expired or was not started here; connect again' },
      },
    });
    expect(
      await screen.findByText('Failed to fetch teams/channels: The Microsoft sign-in expired or was not started here; connect again'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connect again' }));
    expect(await screen.findByRole('button', { name: 'Connect with Microsoft Teams' })).toBeInTheDocument();
    expect(pendingChannel()).toBeNull();
  });

  it('shows the server message when a team\'s channels cannot be read', async () => {
    const { user } = await openPicker({
      [`GET /v1/api/teams/oauth/channel/${PENDING_CHANNEL_ID}/teams/team-finops/channels`]: {
        status: 502,
        body: { message: 'Forbidden' },
      },
    });
    await choose(user, 'Team', 'FinOps');
    expect(await screen.findByText('Failed to fetch teams/channels: Forbidden')).toBeInTheDocument();
  });

  it.each([
    [{ status: 502, body: { message: 'The channel no longer exists' } }, 'Failed to complete the integration: The channel no longer exists. Please try again.'],
    [{ status: 500 }, 'Failed to complete the integration: Server error occurred. Please try again.'],
  ])('a refused completion is an error toast and the picker stays (%j)', async (reply, message) => {
    const { user } = await openPicker({
      [`POST /v1/api/teams/oauth/channel/${PENDING_CHANNEL_ID}/teams/team-finops/channels/${encodeURIComponent('19:alerts@thread.tacv2')}`]: reply,
    });
    await choose(user, 'Team', 'FinOps');
    await choose(user, 'Channel', 'Cost alerts');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await alertWith(message)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(pendingChannel()).toBe(PENDING_CHANNEL_ID);
  });
});
