import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import type { Customer, User } from '@/api/types';
import { RECOMMENDATION_MESSAGES, SavingsRecommendations } from './recommendations';
import { makeRecommendation, RECOMMENDATIONS, savingsAnswer } from './testing';

const dismissPath = (id: string) => `/v1/savings/${encodeURIComponent(id)}/dismiss`;

function setup(savings: MockReply = { body: savingsAnswer() }, { me = makeUser(), customer = makeCustomer(), routes = {} }: { me?: User; customer?: Customer; routes?: Record<string, MockReply> } = {}) {
  signInAs(me);
  const api = mockApi({ ...appRoutes({ me, customer }), 'GET /v1/savings': savings, ...routes });
  return { ...api, ...renderWithProviders(<SavingsRecommendations />) };
}

function rowTexts(table: HTMLElement): string[] {
  return within(table).getAllByRole('row').map((row) => row.textContent ?? '');
}

describe('Savings recommendations', () => {
  it('names the resource, the evidence, the monthly saving and how to act, with the total of those not dismissed', async () => {
    setup();
    const section = screen.getByRole('region', { name: 'Recommendations' });
    const table = await within(section).findByRole('table', { name: 'Savings recommendations' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Resource', 'Recommendation', 'How to act', 'Monthly saving', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('EC2 Volume');
    expect(rows[0]).toHaveTextContent('Account 111111111111 · us-east-1');
    expect(rows[0]).toHaveTextContent('Unattached volume');
    expect(rows[0]).toHaveTextContent('EBS volume vol-0aaa is not attached');
    expect(rows[0]).toHaveTextContent('its own billed cost of the last 30 days is $8.00');
    expect(rows[0]).toHaveTextContent('Snapshot it if you may need the data, then delete the volume.');
    expect(rows[0]).toHaveTextContent('$8.00');
    expect(within(rows[0]).getByRole('link', { name: 'vol-0aaa' })).toHaveAttribute(
      'href',
      '/inventory?account=111111111111&region=us-east-1&type=AWS%3A%3AEC2%3A%3AVolume&resource=vol-0aaa',
    );
    expect(rows[1]).toHaveTextContent('Elastic IP 203.0.113.5 is not associated');
    expect(within(rows[1]).getAllByRole('cell')[3]).toHaveTextContent('no billed cost found');
    expect(within(section).getByRole('group', { name: 'Total monthly saving' })).toHaveTextContent('Total monthly saving$8.00from 2 recommendations, 1 dismissed left out');
    expect(within(section).getByText(/\(2026-10-27 to 2026-11-26, UTC\)/)).toBeInTheDocument();
  });

  it('writes savings in the tenant currency and notes cost in other currencies', async () => {
    const recommendations = [makeRecommendation({ currency: 'EUR', monthly_saving: 12.5 })];
    setup({ body: savingsAnswer(recommendations, { currency: 'EUR', other_currencies: [{ currency: 'GBP', amount: 4 }] }) });
    const table = await screen.findByRole('table', { name: 'Savings recommendations' });
    expect(rowTexts(table)[1]).toContain('€12.50');
    expect(screen.getByRole('group', { name: 'Total monthly saving' })).toHaveTextContent('€12.50from 1 recommendation');
    expect(screen.getByText('Billed cost in other currencies is left out of every saving: £4.00')).toBeInTheDocument();
  });

  it('dismisses a recommendation (remembered by the server) and reloads the list', async () => {
    let dismissed = false;
    const { user, callsTo } = setup(() => ({ body: savingsAnswer(RECOMMENDATIONS.map((r, i) => (i === 0 ? { ...r, dismissed } : r))) }), {
      routes: {
        [`POST ${dismissPath(RECOMMENDATIONS[0].id)}`]: () => {
          dismissed = true;
          return { status: 204 };
        },
      },
    });
    const dismiss = await screen.findByRole('button', { name: 'Dismiss EBS volume vol-0aaa is not attached' });
    await waitFor(() => expect(dismiss).toBeEnabled());
    await user.click(dismiss);
    await waitFor(() => expect(screen.queryByText('EBS volume vol-0aaa is not attached')).not.toBeInTheDocument());
    expect(callsTo('POST', dismissPath(RECOMMENDATIONS[0].id))).toHaveLength(1);
    expect(callsTo('GET', '/v1/savings')).toHaveLength(2);
    expect(screen.getByRole('group', { name: 'Total monthly saving' })).toHaveTextContent('$0.00from 1 recommendation, 2 dismissed left out');
  });

  it('shows dismissed ones on Show dismissed, and restores one', async () => {
    let restored = false;
    const { user, callsTo } = setup(() => ({ body: savingsAnswer(RECOMMENDATIONS.map((r, i) => (i === 2 ? { ...r, dismissed: !restored } : r))) }), {
      routes: {
        [`DELETE ${dismissPath(RECOMMENDATIONS[2].id)}`]: () => {
          restored = true;
          return { status: 204 };
        },
      },
    });
    await screen.findByRole('table', { name: 'Savings recommendations' });
    expect(screen.queryByText('EBS volume vol-0bbb is gp2')).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Show dismissed (1)' }));
    const row = screen.getByText('EBS volume vol-0bbb is gp2').closest('tr')!;
    expect(row).toHaveTextContent('Dismissed');
    const restore = within(row).getByRole('button', { name: 'Restore EBS volume vol-0bbb is gp2' });
    await waitFor(() => expect(restore).toBeEnabled());
    await user.click(restore);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Show dismissed (0)' })).toBeInTheDocument());
    expect(callsTo('DELETE', dismissPath(RECOMMENDATIONS[2].id))).toHaveLength(1);
    expect(screen.getByText('EBS volume vol-0bbb is gp2').closest('tr')).not.toHaveTextContent('Dismissed');
    expect(screen.getByRole('group', { name: 'Total monthly saving' })).toHaveTextContent('$11.00from 3 recommendations');
  });

  it('shows the server message when a dismissal is refused', async () => {
    const { user } = setup(undefined, {
      routes: { [`POST ${dismissPath(RECOMMENDATIONS[0].id)}`]: { status: 404, body: { message: 'Recommendation not found' } } },
    });
    const dismiss = await screen.findByRole('button', { name: 'Dismiss EBS volume vol-0aaa is not attached' });
    await waitFor(() => expect(dismiss).toBeEnabled());
    await user.click(dismiss);
    expect(await screen.findByRole('alert')).toHaveTextContent('Recommendation not found');
  });

  it('lets only owners and admins dismiss, never in the demo', async () => {
    const plain = setup(undefined, { me: makeUser({ role: 'user' }) });
    const button = await screen.findByRole('button', { name: 'Dismiss EBS volume vol-0aaa is not attached' });
    await waitFor(() => expect(button.parentElement).toHaveAttribute('aria-label', RECOMMENDATION_MESSAGES.notAdmin));
    expect(button).toBeDisabled();
    plain.unmount();

    setup(undefined, { customer: makeCustomer({ id: 7, is_demo: true }) });
    const demo = await screen.findByRole('button', { name: 'Dismiss EBS volume vol-0aaa is not attached' });
    await waitFor(() => expect(demo.parentElement).toHaveAttribute('aria-label', RECOMMENDATION_MESSAGES.demo));
    expect(demo).toBeDisabled();
  });

  it('lets an admin dismiss', async () => {
    setup(undefined, { me: makeUser({ role: 'admin' }) });
    const button = await screen.findByRole('button', { name: 'Dismiss EBS volume vol-0aaa is not attached' });
    await waitFor(() => expect(button).toBeEnabled());
  });

  it('says in words when there is nothing to recommend, or everything is dismissed', async () => {
    const empty = setup({ body: savingsAnswer([]) });
    expect(await screen.findByText(RECOMMENDATION_MESSAGES.none)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Total monthly saving' })).toHaveTextContent('$0.00from 0 recommendations');
    empty.unmount();

    const one = setup({ body: savingsAnswer([makeRecommendation({ dismissed: true })]) });
    expect(await screen.findByText('The only recommendation is dismissed. Turn on Show dismissed to see it.')).toBeInTheDocument();
    one.unmount();

    setup({ body: savingsAnswer(RECOMMENDATIONS.map((r) => ({ ...r, dismissed: true }))) });
    expect(await screen.findByText('All 3 recommendations are dismissed. Turn on Show dismissed to see them.')).toBeInTheDocument();
  });

  it('says so when the recommendations cannot be loaded, with the server message when there is one', async () => {
    const first = setup({ status: 503, body: { message: 'The cost engine is busy, try again in a moment' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The cost engine is busy, try again in a moment');
    first.unmount();

    setup({ status: 500, body: {} });
    expect(await screen.findByRole('alert')).toHaveTextContent(RECOMMENDATION_MESSAGES.loadFailed);
  });

  it('says so when a dismissal or a restore fails without a server message', async () => {
    const { user } = setup(undefined, {
      routes: {
        [`POST ${dismissPath(RECOMMENDATIONS[0].id)}`]: { status: 500, body: {} },
        [`DELETE ${dismissPath(RECOMMENDATIONS[2].id)}`]: { status: 500, body: {} },
      },
    });
    const dismiss = await screen.findByRole('button', { name: 'Dismiss EBS volume vol-0aaa is not attached' });
    await waitFor(() => expect(dismiss).toBeEnabled());
    await user.click(dismiss);
    expect(await screen.findByRole('alert')).toHaveTextContent(RECOMMENDATION_MESSAGES.dismissFailed);
    await user.click(screen.getByRole('switch', { name: 'Show dismissed (1)' }));
    await user.click(screen.getByRole('button', { name: 'Restore EBS volume vol-0bbb is gp2' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(RECOMMENDATION_MESSAGES.restoreFailed));
  });
});
