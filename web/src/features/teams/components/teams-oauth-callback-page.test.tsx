import { act, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { Route, Routes } from 'react-router';
import { renderApp, renderWithProviders, signInAs } from '@/test/render';
import { TeamsOAuthCallbackPage } from './teams-oauth-callback-page';

const admin = makeUser({ id: 2, role: 'admin' });

function setup(query: string, callback: MockReply = { body: { channel_id: 41 } }) {
  signInAs(admin);
  const api = mockApi({ ...appRoutes({ me: admin }), 'POST /v1/api/teams/oauth/callback': callback });
  return { ...api, ...renderApp(`/teams-oauth-callback${query}`) };
}

const location = () => screen.getByTestId('location');

/** The return page alone, so that the auth=… it hands to the connect page stays visible. */
function setupAlone(query: string, callback: MockReply = { body: { channel_id: 41 } }) {
  signInAs(admin);
  const api = mockApi({ 'POST /v1/api/teams/oauth/callback': callback });
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/teams-oauth-callback" element={<TeamsOAuthCallbackPage />} />
      <Route path="/settings/ms-teams-connect" element={<p>Connect page</p>} />
    </Routes>,
    { route: `/teams-oauth-callback${query}` },
  );
  return { ...api, ...rendered };
}

async function expectConnectPageWith(auth: string) {
  expect(await screen.findByText('Connect page')).toBeInTheDocument();
  expect(location()).toHaveTextContent('/settings/ms-teams-connect');
  expect(location()).toHaveAttribute('data-search', `?auth=${auth}`);
}

describe('Teams sign-in return page', () => {
  it('redeems the code with its state, then opens the connect page with auth=success', async () => {
    const { callsTo } = setupAlone('?code=M.C1_code&state=st-1');
    await expectConnectPageWith('success');
    expect(callsTo('POST', '/v1/api/teams/oauth/callback').map((c) => c.body)).toEqual([{ code: 'M.C1_code', state: 'st-1' }]);
  });

  it('in the app: the connect page takes over (here without a sign-in started in this browser)', async () => {
    const { callsTo } = setup('?code=M.C1_code&state=st-1');
    expect(await screen.findByText('Authentication error: No channel ID found. Please try reconnecting.')).toBeInTheDocument();
    expect(location()).toHaveTextContent('/settings/ms-teams-connect');
    expect(callsTo('POST', '/v1/api/teams/oauth/callback')).toHaveLength(1);
  });

  it('shows "Processing your request..." with the "click here" fallback (auth=manual) and a noscript one (auth=nojs)', async () => {
    const { container } = setupAlone('?code=M.C1_code&state=st-1', () => new Promise(() => undefined));
    expect(await screen.findByText('Processing your request...')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'click here' })).toHaveAttribute('href', '/settings/ms-teams-connect?auth=manual');
    expect(container.querySelector('noscript')).not.toBeNull();
  });

  it('opens auth=error when the server refuses the code', async () => {
    const { callsTo } = setupAlone('?code=M.C1_code&state=st-old', {
      status: 400,
      body: { message: 'The Microsoft sign-in expired or was not started here; connect again' },
    });
    await expectConnectPageWith('error');
    expect(callsTo('POST', '/v1/api/teams/oauth/callback')).toHaveLength(1);
  });

  it.each([
    ['?error=access_denied&error_description=The+user+cancelled', 'cancelled'],
    ['?error=invalid_request&state=st-1', 'error'],
    ['?code=M.C1_code&error=server_error', 'error'],
    ['', 'error'],
  ])('"%s" → auth=%s without calling the server', async (query, auth) => {
    const { callsTo } = setupAlone(query);
    await expectConnectPageWith(auth);
    expect(callsTo('POST', '/v1/api/teams/oauth/callback')).toHaveLength(0);
  });

  it('gives up with auth=timeout when nothing happened after 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setupAlone('?code=M.C1_code&state=st-1', () => new Promise(() => undefined));
    expect(await screen.findByText('Processing your request...')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_000);
    });
    expect(location()).toHaveTextContent('/teams-oauth-callback');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_100);
    });
    await expectConnectPageWith('timeout');
  });

  it('redeems a code once when its effects run twice (React StrictMode)', async () => {
    signInAs(admin);
    const { callsTo } = mockApi({ 'POST /v1/api/teams/oauth/callback': { body: { channel_id: 41 } } });
    renderWithProviders(
      <StrictMode>
        <Routes>
          <Route path="/teams-oauth-callback" element={<TeamsOAuthCallbackPage />} />
          <Route path="/settings/ms-teams-connect" element={<p>Connect page</p>} />
        </Routes>
      </StrictMode>,
      { route: '/teams-oauth-callback?code=M.C1_code&state=st-1' },
    );
    await expectConnectPageWith('success');
    expect(callsTo('POST', '/v1/api/teams/oauth/callback')).toHaveLength(1);
  });
});
