import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';

const owner = makeUser();
const KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'my-project-1',
  client_email: 'costscope@my-project-1.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n',
});
const TABLE = 'my-project-1.billing.gcp_billing_export_v1_0123AB_4567CD_89EF01';

function setup(extra: Record<string, MockReply> = {}, options: { me?: ReturnType<typeof makeUser>; customer?: ReturnType<typeof makeCustomer> } = {}) {
  signInAs(options.me ?? owner);
  const api = mockApi({
    ...appRoutes({ me: options.me ?? owner, customer: options.customer ?? makeCustomer() }),
    'POST /v1/gcp/account': { status: 201, body: { id: 30 } },
    ...extra,
  });
  return { ...api, ...renderApp('/settings/gcp-connect') };
}

async function ready() {
  await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled());
}

function chooseKey(name: string, text: string) {
  const input = screen.getByLabelText('Service account key file');
  fireEvent.change(input, { target: { files: [new File([text], name, { type: 'application/json' })] } });
}

async function toServiceAccountStep(user: ReturnType<typeof setup>['user'], billingProject = '') {
  await ready();
  await user.type(await screen.findByLabelText('Project ID'), 'my-project-1');
  await user.type(screen.getByLabelText('Project Name (optional)'), 'My project');
  await user.type(screen.getByLabelText('Billing Export Table'), TABLE);
  if (billingProject) await user.type(screen.getByLabelText('Billing Project ID (optional)'), billingProject);
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByRole('button', { name: 'Upload key file' });
}

describe('Connect GCP', () => {
  it('shows the three steps and the project details messages', async () => {
    const { user } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Connect GCP' })).toBeInTheDocument();
    for (const step of ['Project Details', 'Service Account', 'Complete']) expect(screen.getByText(step)).toBeInTheDocument();
    await ready();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Project ID is required')).toBeInTheDocument();
    expect(screen.getByText('Billing export table must be project.dataset.table')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Project ID'), { target: { value: 'p'.repeat(501) } });
    fireEvent.change(screen.getByLabelText('Project Name (optional)'), { target: { value: 'n'.repeat(501) } });
    await user.type(screen.getByLabelText('Billing Export Table'), 'only.two');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Project ID must be at most 500 characters')).toBeInTheDocument();
    expect(screen.getByText('Name must be at most 500 characters')).toBeInTheDocument();
    expect(screen.getByText('Billing export table must be project.dataset.table')).toBeInTheDocument();
  });

  it('refuses a key file that is not JSON or not a service-account key', async () => {
    const { user, callsTo } = setup();
    await toServiceAccountStep(user);
    chooseKey('key.json', '{ not json');
    expect(await screen.findByText('Invalid JSON file. Please upload a valid service account key file.')).toBeInTheDocument();
    chooseKey('key.json', '{"type":"authorized_user"}');
    expect(await screen.findByText('Invalid JSON file. Please upload a valid service account key file.')).toBeInTheDocument();
    chooseKey('key.txt', KEY);
    expect(await screen.findByText('The key file must be a .json file')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Please upload a service account key file')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/gcp/account')).toHaveLength(0);
  });

  it('warns while the billing export is not confirmed', async () => {
    const { user } = setup();
    await toServiceAccountStep(user);
    expect(screen.getByText(/Without a Cloud Billing export to BigQuery/)).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'I have set up the Cloud Billing export to BigQuery' }));
    expect(screen.queryByText(/Without a Cloud Billing export to BigQuery/)).not.toBeInTheDocument();
  });

  it('connects with the key text, shows completion with "24-48 hours" and returns to Cloud Accounts after 2 s', async () => {
    const { user, callsTo } = setup();
    await toServiceAccountStep(user, 'billing-host-1');
    chooseKey('my-key.json', KEY);
    expect(await screen.findByText('Key file: my-key.json')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'I have set up the Cloud Billing export to BigQuery' }));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('GCP project connected')).toBeInTheDocument();
    expect(screen.getByText('Cost data will appear within 24-48 hours.')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/gcp/account')[0].body).toEqual({
      account_id: 'my-project-1',
      account_name: 'My project',
      subscription_id: '0123AB-4567CD-89EF01',
      secret_key: KEY,
      billing_table: TABLE,
      billing_project_id: 'billing-host-1',
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    expect(screen.getByTestId('location')).toHaveTextContent('/settings/gcp-connect');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600);
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings/integrations'));
  });

  it.each([
    [{ status: 422, body: { message: 'Validation failed', details: { secret_key: ['private_key is not a PEM key'] } } }, 'private_key is not a PEM key'],
    [{ status: 422, body: { message: 'Validation failed', details: {} } }, 'Failed to connect GCP project. Please verify your inputs and try again.'],
    [{ status: 409, body: { message: 'GCP project my-project-1 is already connected' } }, 'GCP project my-project-1 is already connected'],
  ])('shows a refused connection (%j)', async (reply, message) => {
    const { user } = setup({ 'POST /v1/gcp/account': reply });
    await toServiceAccountStep(user);
    chooseKey('key.json', KEY);
    await screen.findByText('Key file: key.json');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('takes a server refusal of a project field back to the first step', async () => {
    const { user } = setup({
      'POST /v1/gcp/account': { status: 422, body: { message: 'Validation failed', details: { billing_table: ['Billing export table must be project.dataset.table'] } } },
    });
    await toServiceAccountStep(user);
    chooseKey('key.json', KEY);
    await screen.findByText('Key file: key.json');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Billing export table must be project.dataset.table')).toBeInTheDocument();
    expect(screen.getByLabelText('Billing Export Table')).toHaveValue(TABLE);
  });

  it('says "No response received" when the server does not answer', async () => {
    const { user } = setup({
      'POST /v1/gcp/account': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await toServiceAccountStep(user);
    chooseKey('key.json', KEY);
    await screen.findByText('Key file: key.json');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Failed to connect GCP project. No response received.')).toBeInTheDocument();
  });

  it('keeps Next disabled for a plain user', async () => {
    setup({}, { me: makeUser({ role: 'user' }) });
    expect(await screen.findByText('Only account owners and admins can manage cloud accounts')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
