import { act, screen, waitFor } from '@testing-library/react';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';

const owner = makeUser();
const SUBSCRIPTION = '0f0e0d0c-0b0a-0908-0706-050403020100';
const TENANT = '11111111-2222-3333-4444-555555555555';
const CLIENT = '66666666-7777-8888-9999-000000000000';

function setup(extra: Record<string, MockReply> = {}, options: { me?: ReturnType<typeof makeUser>; customer?: ReturnType<typeof makeCustomer> } = {}) {
  signInAs(options.me ?? owner);
  const api = mockApi({
    ...appRoutes({ me: options.me ?? owner, customer: options.customer ?? makeCustomer() }),
    'POST /v1/azure/account': { status: 201, body: { id: 40 } },
    ...extra,
  });
  return { ...api, ...renderApp('/settings/azure-connect') };
}

async function ready() {
  await waitFor(() => expect(screen.getByRole('button', { name: 'Connect Azure' })).toBeEnabled());
}

async function fillCommon(user: ReturnType<typeof setup>['user']) {
  await ready();
  await user.type(await screen.findByLabelText('Subscription ID'), SUBSCRIPTION);
  await user.type(screen.getByLabelText('Name'), 'Azure prod');
  await user.type(screen.getByLabelText('Storage Account'), 'costexports');
  await user.type(screen.getByLabelText('Container'), 'exports');
  await user.type(screen.getByLabelText('Directory (optional)'), '/costscope/daily/');
}

describe('Connect Azure', () => {
  it('shows every validation message of the SAS form and of the service principal form', async () => {
    const { user, callsTo } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Connect Azure' })).toBeInTheDocument();
    await ready();
    await user.click(screen.getByRole('button', { name: 'Connect Azure' }));
    for (const message of [
      'Subscription ID must be a GUID such as 00000000-0000-0000-0000-000000000000',
      'Account name must be longer than 2 characters',
      'Storage account name must be 3 to 24 lowercase letters and digits',
      'Container name must be 3 to 63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit',
      'SAS token is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    await user.click(screen.getByRole('radio', { name: 'Service principal' }));
    await user.type(screen.getByLabelText('Blob Endpoint (optional)'), 'ftp://nope');
    await user.click(screen.getByRole('button', { name: 'Connect Azure' }));
    for (const message of [
      'Tenant ID must be a GUID such as 00000000-0000-0000-0000-000000000000',
      'Client ID must be a GUID such as 00000000-0000-0000-0000-000000000000',
      'Client secret is required',
      'Blob endpoint must be an http or https URL such as https://account.blob.core.windows.net',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(callsTo('POST', '/v1/azure/account')).toHaveLength(0);
  });

  it('connects with a SAS token and shows the completion view, then returns to Cloud Accounts', async () => {
    const { user, callsTo } = setup();
    await fillCommon(user);
    await user.type(screen.getByLabelText('SAS Token'), 'sv=2024&sig=secret');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Connect Azure' }));
    expect(await screen.findByText('Azure export connected')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/azure/account')[0].body).toEqual({
      account_id: SUBSCRIPTION,
      account_name: 'Azure prod',
      storage_account: 'costexports',
      container: 'exports',
      directory: 'costscope/daily',
      auth: 'sas',
      sas_token: 'sv=2024&sig=secret',
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_100);
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings/integrations'));
  });

  it('connects with a service principal and a blob endpoint', async () => {
    const { user, callsTo } = setup();
    await fillCommon(user);
    await user.click(screen.getByRole('radio', { name: 'Service principal' }));
    await user.type(screen.getByLabelText('Tenant ID'), TENANT);
    await user.type(screen.getByLabelText('Client ID'), CLIENT);
    await user.type(screen.getByLabelText('Client Secret'), 'shh');
    await user.type(screen.getByLabelText('Blob Endpoint (optional)'), 'http://127.0.0.1:10000/costexports');
    await user.click(screen.getByRole('button', { name: 'Connect Azure' }));
    expect(await screen.findByText('Azure export connected')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/azure/account')[0].body).toEqual({
      account_id: SUBSCRIPTION,
      account_name: 'Azure prod',
      storage_account: 'costexports',
      container: 'exports',
      directory: 'costscope/daily',
      auth: 'service_principal',
      tenant_id: TENANT,
      client_id: CLIENT,
      client_secret: 'shh',
      blob_endpoint: 'http://127.0.0.1:10000/costexports',
    });
  });

  it.each([
    [{ status: 422, body: { message: 'Validation failed', details: { container: ['Container exports2 does not exist'] } } }, 'Container exports2 does not exist'],
    [{ status: 409, body: { message: 'Azure subscription is already connected' } }, 'Azure subscription is already connected'],
    [{ status: 500, body: { message: 'Internal' } }, 'Failed to connect the Azure export. Please verify your inputs and try again.'],
  ])('shows a refused connection (%j)', async (reply, message) => {
    const { user } = setup({ 'POST /v1/azure/account': reply });
    await fillCommon(user);
    await user.type(screen.getByLabelText('SAS Token'), 'sv=2024&sig=secret');
    await user.click(screen.getByRole('button', { name: 'Connect Azure' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('keeps Connect disabled in the demo', async () => {
    setup({}, { customer: makeCustomer({ id: 7 }) });
    expect(await screen.findByText('Cloud accounts cannot be changed in the demo')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect Azure' })).toBeDisabled();
  });
});
