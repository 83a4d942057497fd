import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeCustomer, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import type { Customer, Role } from '@/api/types';
import type { StandardTag } from '@/components/inventory';
import { StandardTagsManager } from './standard-tags-manager';

const TAGS: StandardTag[] = [
  { id: 1, key: 'env', values: ['prod', 'dev'] },
  { id: 2, key: 'owner', values: [] },
];

function setup(routes: Record<string, MockReply> = {}, { role = 'owner', customer = makeCustomer() }: { role?: Role; customer?: Customer } = {}) {
  const me = makeUser({ role });
  signInAs(me);
  const api = mockApi({ ...appRoutes({ me, customer }), 'GET /tags/standard': { body: TAGS }, ...routes });
  return { ...api, ...renderWithProviders(<StandardTagsManager />) };
}

describe('Standard Tags Manager (spec 1 §2.9)', () => {
  it('lists the tags with their values as chips and Edit / Delete actions', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Standard tags' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Tag Key', 'Values', 'Actions']);
    const env = within(table).getByText('env').closest('tr')!;
    expect(within(env).getByText('prod')).toHaveClass('MuiChip-label');
    expect(within(env).getByText('dev')).toBeInTheDocument();
    expect(within(table).getByText('owner').closest('tr')).toHaveTextContent('Any value');
    await waitFor(() => expect(within(env).getByRole('button', { name: 'Edit env' })).toBeEnabled());
    expect(within(env).getByRole('button', { name: 'Delete env' })).toBeEnabled();
  });

  it('says when there are none', async () => {
    setup({ 'GET /tags/standard': { body: [] } });
    expect(await screen.findByText('No standard tags found')).toBeInTheDocument();
    expect(screen.getByText("You haven't created any standard tags yet. Click Add New Tag to create one.")).toBeInTheDocument();
  });

  it('adds a tag: Add disabled while the key is empty, an empty key marked, values split by commas', async () => {
    const { user, callsTo } = setup({ 'POST /tags/standard': { status: 201, body: { id: 3, key: 'team', values: ['a', 'b'] } } });
    await screen.findByRole('table', { name: 'Standard tags' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add New Tag' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Add New Tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Tag' });
    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    const key = within(dialog).getByRole('textbox', { name: 'Tag Key' });
    await user.type(key, '   ');
    expect(add).toBeDisabled();
    await user.click(within(dialog).getByRole('textbox', { name: 'Tag Values' }));
    expect(within(dialog).getByText('Tag key is required')).toBeInTheDocument();
    expect(key).toHaveAttribute('aria-invalid', 'true');
    await user.clear(key);
    await user.type(key, ' team ');
    expect(add).toBeEnabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Tag Values' }), 'a, ,b, a,');
    await user.click(add);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add New Tag' })).not.toBeInTheDocument());
    expect(callsTo('POST', '/tags/standard')[0].body).toEqual({ key: 'team', values: ['a', 'b'] });
    // The list is read again.
    await waitFor(() => expect(callsTo('GET', '/tags/standard').length).toBeGreaterThan(1));
  });

  it('edits a tag with Update, its values prefilled', async () => {
    const { user, callsTo } = setup({ 'PUT /tags/standard/1': { body: { id: 1, key: 'env', values: ['prod'] } } });
    const row = (await screen.findByText('env')).closest('tr')!;
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Edit env' })).toBeEnabled());
    await user.click(within(row).getByRole('button', { name: 'Edit env' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Tag' });
    expect(within(dialog).getByRole('textbox', { name: 'Tag Key' })).toHaveValue('env');
    const values = within(dialog).getByRole('textbox', { name: 'Tag Values' });
    expect(values).toHaveValue('prod, dev');
    await user.clear(values);
    await user.type(values, 'prod');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(callsTo('PUT', '/tags/standard/1')).toHaveLength(1));
    expect(callsTo('PUT', '/tags/standard/1')[0].body).toEqual({ key: 'env', values: ['prod'] });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Tag' })).not.toBeInTheDocument());
  });

  it("shows the server's message (and its field message) in a dismissible red Error message", async () => {
    const { user } = setup({
      'POST /tags/standard': { status: 409, body: { message: 'A standard tag with key "env" already exists', details: { key: ['A standard tag with key "env" already exists'] } } },
    });
    await screen.findByRole('table', { name: 'Standard tags' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add New Tag' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Add New Tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Tag' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Tag Key' }), 'env');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('A standard tag with key "env" already exists');
    expect(alert).toHaveClass('MuiAlert-standardError');
    expect(within(dialog).getByRole('textbox', { name: 'Tag Key' })).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(alert).getByRole('button', { name: 'Close' }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says "An error occurred" when the server gives no message', async () => {
    const { user } = setup({ 'POST /tags/standard': { status: 500 } });
    await screen.findByRole('table', { name: 'Standard tags' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add New Tag' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Add New Tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Tag' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Tag Key' }), 'env');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('An error occurred');
  });

  it('shows the list failure in the Error message', async () => {
    setup({ 'GET /tags/standard': { status: 403, body: { message: 'You do not have access to standard tags' } } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ErrorYou do not have access to standard tags');
  });

  it('deletes after "Confirm Tag Deletion"; a failure stays in the dialog', async () => {
    let fail = true;
    const { user, callsTo } = setup({
      'DELETE /tags/standard/1': () => (fail ? { status: 404, body: { message: 'Standard tag not found' } } : { status: 204 }),
    });
    const row = (await screen.findByText('env')).closest('tr')!;
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Delete env' })).toBeEnabled());
    await user.click(within(row).getByRole('button', { name: 'Delete env' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Tag Deletion' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete the standard tag "env"?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Standard tag not found');
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm Tag Deletion' })).not.toBeInTheDocument());
    expect(callsTo('DELETE', '/tags/standard/1')).toHaveLength(2);
  });

  it('lets plain users and the demo only read', async () => {
    const plain = setup({}, { role: 'user' });
    const row = (await screen.findByText('env')).closest('tr')!;
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add New Tag' }).parentElement).toHaveAttribute('aria-label', 'Only account owners and admins can manage standard tags'));
    expect(screen.getByRole('button', { name: 'Add New Tag' })).toBeDisabled();
    expect(within(row).getByRole('button', { name: 'Edit env' })).toBeDisabled();
    expect(within(row).getByRole('button', { name: 'Delete env' })).toBeDisabled();
    plain.unmount();

    setup({}, { customer: makeCustomer({ id: 7, is_demo: true }) });
    await screen.findByText('env');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add New Tag' }).parentElement).toHaveAttribute('aria-label', 'Standard tags cannot be changed in the demo'));
    expect(screen.getByRole('button', { name: 'Add New Tag' })).toBeDisabled();
  });
});
