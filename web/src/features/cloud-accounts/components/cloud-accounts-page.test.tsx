import { act, screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { makeConnection, makeNoSync, makeSeenOnly, makeSync } from '../testing/make-connection';
import type { CloudConnection } from '../types';

const owner = makeUser();
const plainUser = makeUser({ id: 2, role: 'user', name: 'Uma User' });

function setup(rows: CloudConnection[], extra: Record<string, MockReply> = {}, options: { me?: typeof owner; customer?: ReturnType<typeof makeCustomer> } = {}) {
  signInAs(options.me ?? owner);
  const api = mockApi({
    ...appRoutes({ me: options.me ?? owner, customer: options.customer ?? makeCustomer() }),
    'GET /v1/account': { body: rows },
    ...extra,
  });
  const rendered = renderApp('/settings/integrations');
  return { ...api, ...rendered };
}

const table = (name: string) => screen.findByRole('table', { name });

/** The controls are enabled once the role and the customer are known. */
async function enabled(name: string) {
  await waitFor(() => expect(screen.getByRole('button', { name })).toBeEnabled());
  return screen.getByRole('button', { name });
}

function rowNames(t: HTMLElement): string[] {
  return within(t)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent ?? '');
}

describe('Cloud Accounts page', () => {
  it('offers every way in and says read-only access is used', async () => {
    const { user } = setup([]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Cloud Accounts' })).toBeInTheDocument();
    expect(screen.getByText(/uses read-only access/)).toBeInTheDocument();
    for (const name of ['Connect AWS', 'Connect GCP', 'Connect Azure', 'Connect MS Teams', 'Upload billing files']) await enabled(name);
    expect(within(screen.getByRole('region', { name: 'MS Teams' })).getByRole('button', { name: 'Connect MS Teams' })).toBeInTheDocument();
    expect(await table('AWS accounts')).toHaveTextContent('No AWS accounts connected yet.');
    expect(screen.getByRole('table', { name: 'GCP projects' })).toHaveTextContent('No GCP projects connected yet.');
    expect(screen.getByRole('table', { name: 'Azure exports' })).toHaveTextContent('No Azure exports connected yet.');

    await user.click(screen.getByRole('button', { name: 'Upload billing files' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings/billing-data'));
  });

  it.each([
    ['Connect AWS', '/settings/aws-connect'],
    ['Connect GCP', '/settings/gcp-connect'],
    ['Connect Azure', '/settings/azure-connect'],
    ['Connect MS Teams', '/settings/ms-teams-connect'],
  ])('%s opens its wizard', async (button, path) => {
    const { user } = setup([]);
    await table('AWS accounts');
    await user.click(await enabled(button));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(path));
  });

  it('lists an organisation with its member accounts under it, the state, last sync and last error', async () => {
    const org = makeConnection({ id: 11, account_id: '111111111111', account_name: 'Acme Org', organization_id: 'r-ab12' });
    const member = makeConnection({
      id: 13,
      account_id: '222222222222',
      account_name: 'Alpha member',
      parent_id: 11,
      export: null,
      sync: makeNoSync(),
      registration: null,
    });
    const failing = makeConnection({
      id: 14,
      account_id: '333333333333',
      account_name: 'Broken',
      registration: { State: 7, details: 'NoSuchBucket: bucket costscope-exports does not exist', started_at: '2026-11-23T08:00:00Z', finished_at: '2026-11-23T08:00:02Z' },
      sync: makeSync({ state: 'failed', last_error: 'AccessDenied: cannot assume role' }),
    });
    setup([org, member, failing]);
    const aws = await table('AWS accounts');
    expect(rowNames(aws)).toEqual(['Acme OrgOrganization r-ab12', 'Alpha member', 'Broken']);
    const orgRow = within(aws).getByTestId('row-111111111111');
    expect(orgRow).toHaveTextContent('Connected');
    expect(orgRow).toHaveTextContent('23 Nov 2026, 06:02 UTC');
    expect(orgRow).toHaveTextContent('Succeeded');
    expect(orgRow).toHaveTextContent('s3://costscope-exports-123456789012/costscope/costscope-focus');
    const memberRow = within(aws).getByTestId('row-222222222222');
    expect(memberRow).toHaveTextContent('Member account');
    expect(within(memberRow).queryByRole('button')).not.toBeInTheDocument();
    const broken = within(aws).getByTestId('row-333333333333');
    expect(broken).toHaveTextContent('Failed');
    expect(broken).toHaveTextContent('NoSuchBucket: bucket costscope-exports does not exist');
    expect(broken).toHaveTextContent('AccessDenied: cannot assume role');
  });

  it('checks a failed AWS registration again from the table', async () => {
    const failed = makeConnection({
      registration: { State: 7, details: 'AccessDenied: not authorized to perform sts:AssumeRole', started_at: '2026-11-23T08:00:00Z', finished_at: '2026-11-23T08:00:02Z' },
    });
    const checking = makeConnection({ registration: { State: 1, details: null, started_at: '2026-11-23T09:00:00Z', finished_at: null } });
    let rows = [failed];
    const { user, callsTo } = setup([], {
      'GET /v1/account': () => ({ body: rows }),
      'POST /v1/account/registration/job': () => {
        rows = [checking];
        return { body: { State: 1, details: 'Checking' } };
      },
    });
    const aws = await table('AWS accounts');
    await user.click(await enabled('Check again 123456789012'));
    expect(callsTo('POST', '/v1/account/registration/job')[0].body).toEqual({ account_id: '123456789012', restart: true });
    expect(await within(aws).findByText('In progress')).toBeInTheDocument();
    expect(within(aws).queryByRole('button', { name: 'Check again 123456789012' })).not.toBeInTheDocument();
  });

  it('shows what the last sync did and when the next one is due', async () => {
    setup([makeConnection({ sync: makeSync({ last_details: 'Loaded 2 billing periods, 1,234 rows' }) })]);
    const row = within(await table('AWS accounts')).getByTestId('row-123456789012');
    expect(row).toHaveTextContent('Loaded 2 billing periods, 1,234 rows');
    expect(row).toHaveTextContent('Next: 23 Nov 2026, 12:00 UTC');
  });

  it('sorts by a column: ascending first, the same column again descending', async () => {
    const rows = [
      makeConnection({ id: 1, account_id: '300000000000', account_name: 'Bravo' }),
      makeConnection({ id: 2, account_id: '100000000000', account_name: 'Charlie' }),
      makeConnection({ id: 3, account_id: '200000000000', account_name: 'Alpha' }),
    ];
    const { user } = setup(rows);
    const aws = await table('AWS accounts');
    expect(rowNames(aws)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    await user.click(within(aws).getByRole('button', { name: 'Name' }));
    expect(rowNames(aws)).toEqual(['Charlie', 'Bravo', 'Alpha']);
    await user.click(within(aws).getByRole('button', { name: 'Account ID' }));
    expect(rowNames(aws)).toEqual(['Charlie', 'Alpha', 'Bravo']);
    await user.click(within(aws).getByRole('button', { name: 'Account ID' }));
    expect(rowNames(aws)).toEqual(['Bravo', 'Alpha', 'Charlie']);
  });

  it('lists accounts seen only in the cost data as not connected, with a Connect that opens the wizard filled in', async () => {
    const { user } = setup([makeSeenOnly(), makeSeenOnly({ provider: 'gcp', account_id: 'my-project-1', account_name: 'My project' })]);
    const aws = await table('AWS accounts');
    expect(within(aws).getByTestId('row-999988887777')).toHaveTextContent('Not connected');
    await enabled('Connect 999988887777');
    await user.click(within(aws).getByRole('button', { name: 'Connect 999988887777' }));
    expect(await screen.findByLabelText('AWS Account ID')).toHaveValue('999988887777');
    expect(screen.getByTestId('location')).toHaveTextContent('/settings/aws-connect');
    expect(screen.getByLabelText('Account Name')).toHaveValue('Seen in billing');
  });

  it('opens the GCP wizard filled in from a seen-only project', async () => {
    const { user } = setup([makeSeenOnly({ provider: 'gcp', account_id: 'my-project-1', account_name: 'My project' })]);
    const gcp = await table('GCP projects');
    await enabled('Connect my-project-1');
    await user.click(within(gcp).getByRole('button', { name: 'Connect my-project-1' }));
    expect(await screen.findByLabelText('Project ID')).toHaveValue('my-project-1');
  });

  it('disables connect, sync and removal for a plain user', async () => {
    setup([makeConnection(), makeSeenOnly()], {}, { me: plainUser, customer: makeCustomer({ Role: 'user' }) });
    const aws = await table('AWS accounts');
    expect(await screen.findByText('Only account owners and admins can manage cloud accounts')).toBeInTheDocument();
    for (const name of ['Connect AWS', 'Connect GCP', 'Connect Azure', 'Connect MS Teams']) expect(screen.getByRole('button', { name })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Upload billing files' })).toBeEnabled();
    expect(within(aws).getByRole('button', { name: 'Sync now 123456789012' })).toBeDisabled();
    expect(within(aws).getByRole('button', { name: 'Remove 123456789012' })).toBeDisabled();
    expect(within(aws).getByRole('button', { name: 'Connect 999988887777' })).toBeDisabled();
  });

  it('disables AWS connect and removal for the demo customer (id 7), even for its owner', async () => {
    setup([makeConnection()], {}, { customer: makeCustomer({ id: 7 }) });
    const aws = await table('AWS accounts');
    expect(await screen.findByText('Cloud accounts cannot be changed in the demo')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect AWS' })).toBeDisabled();
    expect(within(aws).getByRole('button', { name: 'Remove 123456789012' })).toBeDisabled();
  });

  it('starts a sync, shows it requested and then running, and re-reads the list until it has finished', async () => {
    const requested = makeConnection({ sync: makeSync({ requested_at: '2026-11-23T09:00:00Z' }) });
    const running = makeConnection({ sync: makeSync({ state: 'running', requested_at: '2026-11-23T09:00:00Z', last_started_at: '2026-11-23T09:00:01Z' }) });
    const finished = makeConnection({
      sync: makeSync({ state: 'succeeded', requested_at: '2026-11-23T09:00:00Z', last_started_at: '2026-11-23T09:00:01Z', last_finished_at: '2026-11-23T09:01:00Z' }),
    });
    const answers = [[makeConnection()], [requested], [running], [finished]];
    let reads = 0;
    const { user, callsTo } = setup([], {
      'GET /v1/account': () => ({ body: answers[Math.min(reads++, answers.length - 1)] }),
      'POST /v1/account/12/sync': { status: 202, body: requested },
    });
    const aws = await table('AWS accounts');
    const button = () => within(aws).getByRole('button', { name: /Sync now 123456789012/ });
    await screen.findByText('Succeeded');
    await enabled('Sync now 123456789012');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(button());
    expect(callsTo('POST', '/v1/account/12/sync')).toHaveLength(1);
    expect(await within(aws).findByText('Requested')).toBeInTheDocument();
    expect(button()).toBeDisabled();
    expect(button()).toHaveTextContent('Syncing…');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_100);
    });
    expect(await within(aws).findByText('Running')).toBeInTheDocument();
    expect(button()).toBeDisabled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_100);
    });
    expect(await within(aws).findByText('Succeeded')).toBeInTheDocument();
    expect(within(aws).getByTestId('row-123456789012')).toHaveTextContent('23 Nov 2026, 09:01 UTC');
    expect(button()).toBeEnabled();
    const readsWhenDone = callsTo('GET', '/v1/account').length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(15_000);
    });
    expect(callsTo('GET', '/v1/account')).toHaveLength(readsWhenDone);
  });

  it('says why a sync could not start', async () => {
    const { user } = setup([makeConnection()], {
      'POST /v1/account/12/sync': { status: 409, body: { message: 'This connection has no billing export to sync' } },
    });
    await table('AWS accounts');
    await user.click(await enabled('Sync now 123456789012'));
    expect(await screen.findByText('123456789012: This connection has no billing export to sync')).toBeInTheDocument();
  });

  it('removes an account only once its id is typed exactly', async () => {
    let rows = [makeConnection()];
    const { user, callsTo } = setup([], {
      'GET /v1/account': () => ({ body: rows }),
      'DELETE /v1/account': () => {
        rows = [];
        return { body: { deleted: 1 } };
      },
    });
    const aws = await table('AWS accounts');
    await user.click(await enabled('Remove 123456789012'));
    const dialog = await screen.findByRole('dialog', { name: 'Remove AWS account' });
    const remove = within(dialog).getByRole('button', { name: 'Remove' });
    expect(remove).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Account ID'), '12345678901');
    expect(remove).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Account ID'), '2');
    expect(remove).toBeEnabled();
    await user.click(remove);
    expect(await screen.findByText('AWS account 123456789012 removed')).toBeInTheDocument();
    expect(callsTo('DELETE', '/v1/account')[0].body).toEqual({ account_ids: ['123456789012'] });
    expect(await within(aws).findByText('No AWS accounts connected yet.')).toBeInTheDocument();
  });

  it('removes a GCP project and an Azure export through their own calls, and shows the GCP failure message', async () => {
    const gcp = makeConnection({ id: 20, provider: 'gcp', account_id: 'my-project-1', aws_account_id: null, account_name: 'GCP one' });
    const azure = makeConnection({
      id: 21,
      provider: 'azure',
      account_id: '0f0e0d0c-0b0a-0908-0706-050403020100',
      aws_account_id: null,
      account_name: 'Azure one',
    });
    const { user, callsTo } = setup([gcp, azure], {
      'DELETE /v1/gcp/account': { status: 500, body: { message: 'boom' } },
      'DELETE /v1/azure/account': { body: { deleted: 1 } },
    });
    await table('GCP projects');
    await user.click(await enabled('Remove my-project-1'));
    let dialog = await screen.findByRole('dialog', { name: 'Remove GCP account' });
    await user.type(within(dialog).getByLabelText('Account ID'), 'my-project-1');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('Failed to remove GCP account. Please try again.')).toBeInTheDocument();
    expect(callsTo('DELETE', '/v1/gcp/account')[0].body).toEqual({ account_id: 'my-project-1' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    const azureTable = screen.getByRole('table', { name: 'Azure exports' });
    await user.click(within(azureTable).getByRole('button', { name: 'Remove 0f0e0d0c-0b0a-0908-0706-050403020100' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove Azure account' });
    await user.type(within(dialog).getByLabelText('Account ID'), '0f0e0d0c-0b0a-0908-0706-050403020100');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Azure export 0f0e0d0c-0b0a-0908-0706-050403020100 removed')).toBeInTheDocument();
    expect(callsTo('DELETE', '/v1/azure/account')[0].body).toEqual({ account_id: '0f0e0d0c-0b0a-0908-0706-050403020100' });
  });
});
