import { screen, waitFor } from '@testing-library/react';
import { sharedKeys } from '@/api/queries';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { DEMO_NOTICE_TEXT } from './demo-notice';

describe('demo notice (docs/ANALYST-FLOW.md "Honest context")', () => {
  it('says the figures are generated on every signed-in page of the demo tenant', async () => {
    const me = makeUser();
    signInAs(me);
    mockApi({ ...appRoutes({ me, customer: makeCustomer({ id: 3, is_demo: true }) }), 'GET /v1/ingest': { body: [] } });
    const { user } = renderApp('/welcome');
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Demo data: every figure in this workspace is generated, not a real bill.');
    expect(DEMO_NOTICE_TEXT).toBe('Demo data: every figure in this workspace is generated, not a real bill.');
    await user.click(await screen.findByRole('button', { name: 'Open user menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Billing Data' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing Data' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(DEMO_NOTICE_TEXT);
  });

  it('is not shown to any other tenant', async () => {
    const me = makeUser();
    signInAs(me);
    mockApi(appRoutes({ me, customer: makeCustomer({ is_demo: false }) }));
    const { queryClient } = renderApp('/welcome');
    expect(await screen.findByRole('button', { name: 'Open user menu' })).toBeInTheDocument();
    // The customer has been read, and still no notice.
    await waitFor(() => expect(queryClient.getQueryData(sharedKeys.customer)).toMatchObject({ is_demo: false }));
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(screen.queryByText(DEMO_NOTICE_TEXT)).not.toBeInTheDocument();
  });
});
