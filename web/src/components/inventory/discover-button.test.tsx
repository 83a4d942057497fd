import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { DiscoverButton } from './discover-button';

function setup(reply: MockReply, customer = makeCustomer()) {
  signInAs(makeUser({ role: 'user' }));
  const api = mockApi({ ...appRoutes({ customer }), 'POST /v1/job': reply });
  renderWithProviders(<DiscoverButton />);
  return api;
}

async function trigger() {
  const button = await screen.findByRole('button', { name: 'Discover now' });
  await waitFor(() => expect(button).toBeEnabled());
  await userEvent.setup().click(button);
  return button;
}

describe('Discover now (spec 2 §4, §8)', () => {
  it('posts an empty body to /v1/job and shows the success toast at the top right', async () => {
    const { callsTo } = setup({ status: 202, body: { data: true } });
    await trigger();
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Triggered on-demand discovery, please wait for few mins to reflect the changes.');
    expect(callsTo('POST', '/v1/job')).toHaveLength(1);
    expect(callsTo('POST', '/v1/job')[0].body).toBeUndefined();
  });

  it('says when discovery is already running (409)', async () => {
    setup({
      status: 409,
      body: { message: 'On-demand discovery is already running', data: { details: 'On-demand discovery is already running' } },
    });
    await trigger();
    expect(await screen.findByRole('alert')).toHaveTextContent('On-demand discovery is already running. Please wait.');
  });

  it("says when today's limit is reached (429)", async () => {
    setup({
      status: 429,
      body: { message: 'On-demand discovery limit reached for today', data: { details: 'On-demand discovery limit reached for today' } },
    });
    await trigger();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'On-demand discovery limit reached, Please upgrade the account to increase the limit.',
    );
  });

  it('says another failure happened, with the server message (422)', async () => {
    setup({ status: 422, body: { message: 'Connect an AWS account before running discovery' } });
    await trigger();
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('An error occurred while triggering the job.');
    expect(toast).toHaveTextContent('Connect an AWS account before running discovery');
  });

  it('reads an answer without data as a failure', async () => {
    setup({ status: 202, body: {} });
    await trigger();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to trigger discovery job. Please try again.');
  });

  it('says an unexpected error happened when the server cannot be reached', async () => {
    setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await trigger();
    expect(await screen.findByRole('alert')).toHaveTextContent('An unexpected error occurred.');
  });

  it('is disabled for the demo user', async () => {
    setup({ status: 202, body: { data: true } }, makeCustomer({ id: 7, is_demo: true }));
    const button = await screen.findByRole('button', { name: 'Discover now' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Discover now' }).parentElement).toHaveAttribute('aria-label', 'Discovery cannot be triggered in the demo'));
    expect(button).toBeDisabled();
  });

  it('is disabled while the call runs and for 2 s after it; the toast closes after 5 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    let release: () => void = () => undefined;
    setup(() => new Promise((resolve) => (release = () => resolve({ status: 202, body: { data: true } }))));
    const button = await screen.findByRole('button', { name: 'Discover now' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(button);
    await waitFor(() => expect(button).toBeDisabled());
    act(() => release());
    await screen.findByRole('alert');
    act(() => vi.advanceTimersByTime(1_500));
    expect(button).toBeDisabled();
    act(() => vi.advanceTimersByTime(600));
    await waitFor(() => expect(button).toBeEnabled());
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2_300));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(800));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });
});
