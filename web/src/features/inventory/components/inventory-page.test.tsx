import { screen, waitFor, within } from '@testing-library/react';
import { LINKED_RESOURCE_NOT_FOUND } from '@/components/inventory';
import { inventoryRoutes } from '@/components/inventory/testing';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { InventoryPage } from './inventory-page';

describe('Resource Inventory page', () => {
  it('has the title, the Discover now button, the inventory and the spend not in it', async () => {
    signInAs(makeUser());
    const { callsTo } = mockApi({ ...appRoutes(), ...inventoryRoutes(), 'POST /v1/job': { status: 202, body: { data: true } } });
    const { user } = renderWithProviders(<InventoryPage now={new Date('2026-11-26T10:00:00Z')} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Resource Inventory' })).toBeInTheDocument();
    expect(await within(await screen.findByRole('table', { name: 'Resources' })).findByText('i-0abc')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Spend not in the inventory' })).toBeInTheDocument();
    const discover = screen.getByRole('button', { name: 'Discover now' });
    await waitFor(() => expect(discover).toBeEnabled());
    await user.click(discover);
    expect(await screen.findByText('Triggered on-demand discovery, please wait for few mins to reflect the changes.')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/job')).toHaveLength(1);
  });
});

describe('Resource Inventory page opened from a link', () => {
  const LINK = '/inventory?account=111111111111&region=us-east-1&type=AWS%3A%3AEC2%3A%3AInstance&resource=i-0abc';

  it('opens the side panel of the resource the URL names, and forgets it on close', async () => {
    signInAs(makeUser());
    const { callsTo } = mockApi({ ...appRoutes(), ...inventoryRoutes() });
    const { user } = renderWithProviders(<InventoryPage now={new Date('2026-11-26T10:00:00Z')} />, { route: LINK });
    const panel = await screen.findByRole('region', { name: 'Resource details' });
    expect(within(panel).getByRole('heading', { name: 'i-0abc' })).toBeInTheDocument();
    const lookup = callsTo('POST', '/v1/resource').find((c) => (c.body as { count?: number }).count === 1);
    expect(lookup?.body).toEqual({
      account_ids: ['111111111111'],
      regions: ['us-east-1'],
      resource_types: ['AWS::EC2::Instance'],
      resource_ids: ['i-0abc'],
      // The widest window (900 days back, today included): a resource deleted long ago opens too.
      start_time: Date.UTC(2026, 10, 26) / 1000 - 899 * 86_400,
      count: 1,
    });
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Resource details' })).not.toBeInTheDocument());
    expect(screen.getByTestId('location')).toHaveTextContent('/inventory');
  });

  it('says so when the linked resource is not in the inventory', async () => {
    signInAs(makeUser());
    mockApi({
      ...appRoutes(),
      ...inventoryRoutes({
        list: () => ({
          body: {
            resources: [],
            total: 0,
            cost_period: { start_time: 0, end_time: 0 },
            currency: 'USD',
          },
        }),
      }),
    });
    renderWithProviders(<InventoryPage now={new Date('2026-11-26T10:00:00Z')} />, { route: LINK });
    expect(await screen.findByText(LINKED_RESOURCE_NOT_FOUND)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Resource details' })).not.toBeInTheDocument();
  });

  it('opens no panel when the URL names only part of a resource', async () => {
    signInAs(makeUser());
    const { callsTo } = mockApi({ ...appRoutes(), ...inventoryRoutes() });
    renderWithProviders(<InventoryPage now={new Date('2026-11-26T10:00:00Z')} />, { route: '/inventory?resource=i-0abc' });
    expect(await within(await screen.findByRole('table', { name: 'Resources' })).findByText('i-0abc')).toBeInTheDocument();
    expect(callsTo('POST', '/v1/resource').every((c) => (c.body as { count?: number }).count !== 1)).toBe(true);
    expect(screen.queryByRole('region', { name: 'Resource details' })).not.toBeInTheDocument();
  });
});
