import { act, screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { makeRegisterAnswer } from '../testing/make-connection';
import type { RegistrationJob } from '../types';

const owner = makeUser();

function setup(extra: Record<string, MockReply> = {}, options: { me?: ReturnType<typeof makeUser>; customer?: ReturnType<typeof makeCustomer>; route?: string } = {}) {
  signInAs(options.me ?? owner);
  const api = mockApi({
    ...appRoutes({ me: options.me ?? owner, customer: options.customer ?? makeCustomer() }),
    'POST /v1/register': { body: makeRegisterAnswer() },
    ...extra,
  });
  return { ...api, ...renderApp(options.route ?? '/settings/aws-connect') };
}

const location = () => screen.getByTestId('location');

/** The controls are enabled once the role and the customer are known. */
async function ready(button = 'Next') {
  await waitFor(() => expect(screen.getByRole('button', { name: button })).toBeEnabled());
}

async function fillSingle(user: ReturnType<typeof setup>['user'], id = '123456789012', name = 'Production') {
  await ready();
  await user.type(await screen.findByLabelText('AWS Account ID'), id);
  await user.type(screen.getByLabelText('Account Name'), name);
}

/** Registers a single account and goes on to the Complete step. */
async function toCompleteStep(user: ReturnType<typeof setup>['user']) {
  await fillSingle(user);
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByLabelText('External ID');
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

function jobs(...answers: RegistrationJob[]) {
  let n = 0;
  return () => ({ body: answers[Math.min(n++, answers.length - 1)] });
}

const { createObjectURL, revokeObjectURL } = URL;

describe('Connect AWS', () => {
  afterEach(() => {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
  });

  it('shows the three steps and every validation message of a single account', async () => {
    const { user, callsTo } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Connect AWS' })).toBeInTheDocument();
    for (const step of ['Account Details', 'Create IAM Role', 'Complete']) expect(screen.getByText(step)).toBeInTheDocument();
    await ready();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('AWS Account ID must be exactly 12 digits')).toBeInTheDocument();
    expect(screen.getByText('Account name must be longer than 2 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('AWS Account ID'), '12ab34');
    expect(screen.getByLabelText('AWS Account ID')).toHaveValue('1234');
    await user.type(screen.getByLabelText('Account Name'), ' ab ');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('AWS Account ID must be exactly 12 digits')).toBeInTheDocument();
    expect(screen.getByText('Account name must be longer than 2 characters')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/register')).toHaveLength(0);
  });

  it('registers an organisation: the id input prefixes r- and strips invalid characters', async () => {
    const { user, callsTo } = setup({
      'POST /v1/register': { body: makeRegisterAnswer({ OrgId: 'r-ab12cd' }) },
    });
    await ready();
    await user.click(await screen.findByRole('button', { name: 'Organization' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Organization ID must follow the format: r-[0-9a-z]{4,32}')).toBeInTheDocument();
    expect(screen.getByText('Organization name must be longer than 2 characters')).toBeInTheDocument();
    expect(screen.getByText('AWS Account ID must be exactly 12 digits')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Organization ID'), 'AB_12!cd');
    expect(screen.getByLabelText('Organization ID')).toHaveValue('r-ab12cd');
    await user.type(screen.getByLabelText('Organization Name'), 'Acme Org');
    await user.type(screen.getByLabelText('Management Account ID'), '123456789012');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByLabelText('External ID')).toHaveValue('cs-ext-42');
    expect(callsTo('POST', '/v1/register')[0].body).toEqual({
      aws_account_id: '123456789012',
      organization_id: 'r-ab12cd',
      organization_name: 'Acme Org',
      account_name: 'Acme Org',
      export_format: 'focus-1.2',
    });
  });

  it('sends the manual role and export fields and the CUR 2.0 choice', async () => {
    const { user, callsTo } = setup();
    await fillSingle(user);
    await user.click(screen.getByRole('radio', { name: 'CUR 2.0' }));
    await user.click(screen.getByRole('checkbox', { name: 'I set up the role and export myself' }));
    await user.type(await screen.findByLabelText('IAM Role ARN'), 'arn:aws:iam::12:role/x');
    await user.type(screen.getByLabelText('Region'), 'mars');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('IAM role ARN must look like arn:aws:iam::123456789012:role/CostscopeReadOnly')).toBeInTheDocument();
    expect(screen.getByText('Region must be an AWS region code such as us-east-1')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('IAM Role ARN'));
    await user.type(screen.getByLabelText('IAM Role ARN'), 'arn:aws:iam::123456789012:role/MyRole');
    await user.clear(screen.getByLabelText('Region'));
    await user.type(screen.getByLabelText('Region'), 'eu-west-1');
    await user.type(screen.getByLabelText('S3 Bucket'), 'my-exports');
    await user.type(screen.getByLabelText('Prefix'), 'billing');
    await user.type(screen.getByLabelText('Export Name'), 'daily');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByLabelText('External ID');
    expect(callsTo('POST', '/v1/register')[0].body).toEqual({
      aws_account_id: '123456789012',
      account_name: 'Production',
      export_format: 'cur-2.0',
      iam_role_arn: 'arn:aws:iam::123456789012:role/MyRole',
      export_bucket: 'my-exports',
      export_prefix: 'billing',
      export_name: 'daily',
      export_region: 'eu-west-1',
    });
  });

  it.each([
    [{ status: 422, body: { message: 'Validation failed', details: { aws_account_id: ['AWS Account ID must be exactly 12 digits'] } } }, 'AWS Account ID must be exactly 12 digits'],
    [{ status: 500, body: { message: 'Internal server error' } }, 'Failed to register account. Please try again.'],
    [{ status: 403, body: { message: 'Cloud accounts cannot be changed in the demo' } }, 'Cloud accounts cannot be changed in the demo'],
  ])('shows a refused registration (%j)', async (reply, message) => {
    const { user } = setup({ 'POST /v1/register': reply });
    await fillSingle(user);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByLabelText('External ID')).not.toBeInTheDocument();
  });

  it('says "An error occurred during registration" when the server does not answer', async () => {
    const { user } = setup({
      'POST /v1/register': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await fillSingle(user);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('An error occurred during registration. Please try again.')).toBeInTheDocument();
  });

  it('shows the instructions, the two commands with copy buttons and downloads the template with the bearer token', async () => {
    const createObjectURL = vi.fn(() => 'blob:template');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const { user, callsTo, fetchMock } = setup({ 'GET /v1/aws/onboarding-template': { body: 'AWSTemplateFormatVersion: "2010-09-09"' } });
    await fillSingle(user);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByLabelText('External ID')).toHaveValue('cs-ext-42');
    const answer = makeRegisterAnswer();
    expect(screen.getByText(answer.StackSetCmds[0])).toBeInTheDocument();
    expect(screen.getByText(answer.StackSetCmds[1])).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy command 2' }));
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe(answer.StackSetCmds[1]);
    expect(screen.getByRole('button', { name: 'Copy command 2' })).toHaveTextContent('Copied');

    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await user.click(screen.getByRole('button', { name: 'Download template' }));
    await waitFor(() => expect(saved).toEqual(['costscope-onboarding.yaml']));
    click.mockRestore();
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    const call = callsTo('GET', '/v1/aws/onboarding-template')[0];
    const urls = fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : input.url));
    expect(urls).toContain('http://localhost:3000/v1/aws/onboarding-template?format=focus-1.2');
    expect(call.headers.get('Authorization')).toBe('Bearer access-1');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('AWS Account ID')).toHaveValue('123456789012');
    expect(screen.getByLabelText('Account Name')).toHaveValue('Production');
  });

  it('polls the registration job every 10 s and on success says so, then returns to Cloud Accounts after 5 s', async () => {
    const { user, callsTo } = setup({
      'POST /v1/account/registration/job': jobs(
        { State: 1, details: 'Assuming the role' },
        { State: 1, details: 'Assuming the role' },
        { State: 6, details: 'Role assumed; export location readable' },
      ),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await toCompleteStep(user);
    expect(await screen.findByText('Assuming the role')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/account/registration/job')).toHaveLength(1);
    expect(callsTo('POST', '/v1/account/registration/job')[0].body).toEqual({ account_id: '123456789012' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(9_000);
    });
    expect(callsTo('POST', '/v1/account/registration/job')).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_100);
    });
    expect(callsTo('POST', '/v1/account/registration/job')).toHaveLength(2);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(await screen.findByText('AWS account connected')).toBeInTheDocument();
    expect(screen.getByText('Cost data will appear within 24 hours.')).toBeInTheDocument();
    expect(screen.getByText('Role assumed; export location readable')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_500);
    });
    expect(location()).toHaveTextContent('/settings/aws-connect');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600);
    });
    await waitFor(() => expect(location()).toHaveTextContent('/settings/integrations'));
    expect(callsTo('POST', '/v1/account/registration/job')).toHaveLength(3);
  });

  it('gives up after 120 s of a check in progress and returns to Cloud Accounts', async () => {
    const { user, callsTo } = setup({
      'POST /v1/account/registration/job': { body: { State: 1, details: 'Still checking' } },
      'GET /v1/account': { body: [] },
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await toCompleteStep(user);
    expect(await screen.findByText('Still checking')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(110_000);
    });
    expect(location()).toHaveTextContent('/settings/aws-connect');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_500);
    });
    await waitFor(() => expect(location()).toHaveTextContent('/settings/integrations'));
    // At 0, 10, …, 120 s: 13 reads, none after giving up.
    expect(callsTo('POST', '/v1/account/registration/job')).toHaveLength(13);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(callsTo('POST', '/v1/account/registration/job')).toHaveLength(13);
  });

  it('shows a failed check with its details and checks again on request', async () => {
    const { user, callsTo } = setup({
      'POST /v1/account/registration/job': jobs(
        { State: 7, details: 'NoSuchBucket: bucket costscope-exports-123456789012 does not exist' },
        { State: 6, details: 'Role assumed; export location readable' },
      ),
    });
    await toCompleteStep(user);
    expect(await screen.findByText('NoSuchBucket: bucket costscope-exports-123456789012 does not exist')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('AWS account connected')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/account/registration/job')[1].body).toEqual({ account_id: '123456789012', restart: true });
  });

  it('keeps Next disabled for a plain user and for the demo customer', async () => {
    const { unmount } = setup({}, { me: makeUser({ role: 'user' }) });
    expect(await screen.findByText('Only account owners and admins can manage cloud accounts')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    unmount();
    setup({}, { customer: makeCustomer({ id: 7, is_demo: true }) });
    expect(await screen.findByText('Cloud accounts cannot be changed in the demo')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows the "Welcome > Connect AWS" breadcrumb when coming from the welcome page', async () => {
    signInAs(owner);
    mockApi(appRoutes());
    renderApp('/settings/aws-connect', { fromWelcome: true });
    const crumbs = await screen.findByRole('navigation', { name: 'breadcrumb' });
    expect(within(crumbs).getByText('Connect AWS')).toBeInTheDocument();
  });
});
