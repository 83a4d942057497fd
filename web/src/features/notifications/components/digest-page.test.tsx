import { screen, waitFor, within } from '@testing-library/react';
import type { User } from '@/api/types';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { makeChannel } from '../testing/make-channel';
import type { DigestSettings } from '../types';

const plain = makeUser({ id: 3, name: 'Uma User', email: 'uma@example.com', role: 'user' });
const CHANNELS = [makeChannel({ id: 1, name: 'Team alerts' }), makeChannel({ id: 2, type: 'webhook', name: 'Ledger hook' })];
const DEFAULTS: DigestSettings = { frequency: 'off', email: true, channelId: null };

function setup(me: User, { digest = DEFAULTS, extra = {} }: { digest?: DigestSettings; extra?: Record<string, MockReply> } = {}) {
  signInAs(me);
  const api = mockApi({
    ...appRoutes({ me }),
    'GET /v1/me/digest': { body: digest },
    'PUT /v1/me/digest': (call) => ({ body: call.body }),
    'GET /v1/channels': { body: CHANNELS },
    ...extra,
  });
  return { ...api, ...renderApp('/settings/digest') };
}

const form = () => screen.findByRole('form', { name: 'Digest settings' });

describe('digest page', () => {
  it('shows the stored choice: frequency, e-mail to the own address and the channel', async () => {
    setup(plain, { digest: { frequency: 'weekly', email: true, channelId: 2 } });
    const digest = await form();
    expect(within(digest).getByRole('combobox', { name: /Frequency/ })).toHaveTextContent('Weekly (Mondays)');
    expect(within(digest).getByRole('checkbox', { name: 'E-mail it to me' })).toBeChecked();
    expect(within(digest).getByText('To uma@example.com')).toBeInTheDocument();
    await waitFor(() => expect(within(digest).getByRole('combobox', { name: /Channel/ })).toHaveTextContent('Ledger hook'));
  });

  it('saves any user’s own choice as the server takes it', async () => {
    const { user, callsTo } = setup(plain);
    const digest = await form();
    await user.click(within(digest).getByRole('combobox', { name: /Frequency/ }));
    await user.click(await screen.findByRole('option', { name: 'Daily' }));
    await user.click(within(digest).getByRole('checkbox', { name: 'E-mail it to me' }));
    await user.click(within(digest).getByRole('combobox', { name: /Channel/ }));
    await user.click(await screen.findByRole('option', { name: 'Team alerts' }));
    await user.click(within(digest).getByRole('button', { name: 'Save digest' }));

    expect(await within(digest).findByText('Digest settings saved')).toBeInTheDocument();
    expect(callsTo('PUT', '/v1/me/digest')[0].body).toEqual({ frequency: 'daily', email: false, channelId: 1 });
  });

  it('sends no channel when None is picked', async () => {
    const { user, callsTo } = setup(plain, { digest: { frequency: 'weekly', email: false, channelId: 1 } });
    const digest = await form();
    await waitFor(() => expect(within(digest).getByRole('combobox', { name: /Channel/ })).toHaveTextContent('Team alerts'));
    await user.click(within(digest).getByRole('combobox', { name: /Channel/ }));
    await user.click(await screen.findByRole('option', { name: 'None' }));
    await user.click(within(digest).getByRole('button', { name: 'Save digest' }));
    await within(digest).findByText('Digest settings saved');
    expect(callsTo('PUT', '/v1/me/digest')[0].body).toEqual({ frequency: 'weekly', email: false, channelId: null });
  });

  it.each([
    ['frequency', 'Choose a frequency: off, daily or weekly'],
    ['channelId', 'Unknown channel'],
  ])('shows the server’s 422 on %s under its field', async (field, message) => {
    const { user } = setup(plain, {
      extra: { 'PUT /v1/me/digest': { status: 422, body: { message, details: { [field]: [message] } } } },
    });
    const digest = await form();
    await user.click(within(digest).getByRole('button', { name: 'Save digest' }));
    expect(await within(digest).findByText(message)).toBeInTheDocument();
    expect(within(digest).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(digest).queryByText('Digest settings saved')).not.toBeInTheDocument();
  });

  it('shows the SMTP refusal under the e-mail box', async () => {
    const message = 'E-mail digests need SMTP configured on the server';
    const { user } = setup(plain, {
      extra: { 'PUT /v1/me/digest': { status: 422, body: { message, details: { email: [message] } } } },
    });
    const digest = await form();
    await user.click(within(digest).getByRole('button', { name: 'Save digest' }));
    const box = within(digest).getByRole('checkbox', { name: 'E-mail it to me' });
    await waitFor(() => expect(box).toHaveAccessibleDescription(message));
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(within(digest).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a failure that names no field above the form', async () => {
    const { user } = setup(plain, {
      extra: { 'PUT /v1/me/digest': { status: 500, body: { message: 'Something went wrong on our side' } } },
    });
    const digest = await form();
    await user.click(within(digest).getByRole('button', { name: 'Save digest' }));
    expect(await within(digest).findByRole('alert')).toHaveTextContent('Something went wrong on our side');
  });

  it('is reached from the user menu', async () => {
    const { user } = setup(plain);
    await form();
    await user.click(screen.getByRole('button', { name: 'Open user menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Digest' })).toBeInTheDocument();
  });
});
