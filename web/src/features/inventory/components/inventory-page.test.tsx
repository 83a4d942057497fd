import { screen, waitFor, within } from '@testing-library/react';
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
