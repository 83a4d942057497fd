import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeUser } from '@/test/fixtures';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { InventoryExplorer } from './inventory-explorer';
import { inventoryRoutes, listAnswer, listBodies, makeResource, makeResources } from './testing';
import type { ResourceListRequest } from './types';

const NOW = new Date('2026-11-26T10:00:00Z');

function setup(routes: Parameters<typeof inventoryRoutes>[0] = {}, variant: 'inventory' | 'tags' = 'inventory') {
  signInAs(makeUser());
  const api = mockApi({ ...appRoutes(), ...inventoryRoutes(routes) });
  const view = renderWithProviders(<InventoryExplorer now={NOW} variant={variant} showUnmatchedSpend={variant === 'inventory'} />);
  const lastBody = () => {
    const bodies = listBodies(api.calls);
    return bodies[bodies.length - 1];
  };
  return { ...api, ...view, lastBody };
}

async function chooseOption(user: ReturnType<typeof setup>['user'], label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Resource inventory', () => {
  it('loads the last 30 days, newest first scan first, 200 at a time, and shows the columns', async () => {
    const { lastBody } = setup();
    // §4: a reload shows a loading indicator.
    expect(screen.getByRole('progressbar', { name: 'Loading resources' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Resources' });
    const headers = within(table).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Resource ID', 'Resource Type', 'Region', 'AWS Account', 'First Scan Time', 'State', 'Cost']);
    expect(await within(table).findByText('i-0abc')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading resources' })).not.toBeInTheDocument());
    const row = within(table).getAllByRole('row')[1];
    expect(row).toHaveTextContent('i-0abcAWS::EC2::Instanceus-east-11111111111112026-11-20 14:03 UTCLive$12.50');
    expect(lastBody()).toEqual({
      start_time: Date.UTC(2026, 9, 28) / 1000,
      end_time: Date.UTC(2026, 10, 27) / 1000 - 1,
      order_by: 'c_time',
      order_desc: true,
      count: 200,
      offset: 0,
    });
    expect(screen.getByLabelText('Resource count')).toHaveTextContent('1');
    expect(screen.getByRole('combobox', { name: 'Time Duration' })).toHaveTextContent('Last 30 Days');
    expect(screen.getByRole('combobox', { name: 'Resource State' })).toHaveTextContent('All States');
    expect(screen.getByRole('combobox', { name: 'AWS Account' })).toHaveTextContent('All');
  });

  it('shows a resource without cost as a dash, a deleted one as Deleted, cost in other currencies apart', async () => {
    setup({
      list: { body: { ...listAnswer([makeResource({ cost: null, d_time: 1_790_000_000 })]), other_currencies: [{ currency: 'EUR', amount: 2 }] } },
    });
    expect(await screen.findByText('Cost in other currencies is not in the Cost column: €2.00')).toBeInTheDocument();
    const row = (await screen.findByText('i-0abc')).closest('tr')!;
    expect(row).toHaveTextContent('Deleted');
    expect(row).toHaveTextContent('—');
  });

  it('shows "200+" above 199 and pages 10 rows at a time, fetching the next 200 when needed', async () => {
    const { user, lastBody } = setup({
      list: ({ body }) => {
        const offset = (body as ResourceListRequest).offset ?? 0;
        return { body: listAnswer(makeResources(200, offset), 450) };
      },
    });
    expect(await screen.findByText('i-000')).toBeInTheDocument();
    expect(screen.getByLabelText('Resource count')).toHaveTextContent('200+');
    expect(within(screen.getByRole('table', { name: 'Resources' })).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('1–10 of 450')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('i-010')).toBeInTheDocument();
    expect(lastBody().offset).toBe(0);
    // Straight to page 21: rows 200–209 come from the second call.
    for (let page = 2; page <= 20; page += 1) await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('i-200')).toBeInTheDocument();
    expect(lastBody().offset).toBe(200);
  }, 30_000);

  it('reloads with every filter: accounts, regions, types, state, duration', async () => {
    const { user, lastBody } = setup();
    await screen.findByText('i-0abc');
    await chooseOption(user, 'AWS Account', '222222222222');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(lastBody().account_ids).toEqual(['222222222222']));
    await chooseOption(user, 'Region', 'ap-south-1');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(lastBody().regions).toEqual(['ap-south-1']));
    await chooseOption(user, 'Resource Types', 'Lambda Function');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(lastBody().resource_types).toEqual(['AWS::Lambda::Function']));
    // All clears the choice.
    await chooseOption(user, 'AWS Account', 'All');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(lastBody().account_ids).toBeUndefined());

    await chooseOption(user, 'Resource State', 'Live');
    await waitFor(() => expect(lastBody().d_time).toEqual({ eq: 0 }));
    await chooseOption(user, 'Resource State', 'Deleted');
    await waitFor(() => expect(lastBody().d_time).toEqual({ not_eq: 0 }));

    await chooseOption(user, 'Time Duration', 'Last 90 Days');
    await waitFor(() => expect(lastBody().start_time).toBe(Date.UTC(2026, 7, 29) / 1000));
    await chooseOption(user, 'Time Duration', 'Last 900 Days');
    await waitFor(() => expect(lastBody().start_time).toBe(Date.UTC(2024, 5, 10) / 1000));
  }, 30_000);

  it('takes a custom range of whole UTC days from the range dialog', async () => {
    const { user, lastBody } = setup();
    await screen.findByText('i-0abc');
    await chooseOption(user, 'Time Duration', 'Custom Range');
    const dialog = await screen.findByRole('dialog', { name: 'Select Custom Date Range' });
    await user.click(within(dialog).getByRole('button', { name: 'Tuesday, November 3, 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Tuesday, November 10, 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply Range' }));
    await waitFor(() => expect(lastBody().start_time).toBe(Date.UTC(2026, 10, 3) / 1000));
    expect(lastBody().end_time).toBe(Date.UTC(2026, 10, 11) / 1000 - 1);
    expect(screen.getByRole('combobox', { name: 'Time Duration' })).toHaveTextContent('2026-11-03 – 2026-11-10');
  }, 30_000);

  it('searches by resource ID with the button (disabled while empty); clearing reloads', async () => {
    const { user, lastBody, calls } = setup();
    await screen.findByText('i-0abc');
    const button = screen.getByRole('button', { name: 'Search' });
    expect(button).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Resource ID' }), 'i-0a');
    expect(button).toBeEnabled();
    const before = listBodies(calls).length;
    await user.click(button);
    await waitFor(() => expect(lastBody().search).toBe('i-0a'));
    expect(listBodies(calls).length).toBe(before + 1);
    await user.clear(screen.getByRole('textbox', { name: 'Resource ID' }));
    await waitFor(() => expect(lastBody().search).toBeUndefined());
    expect(button).toBeDisabled();
  });

  it('searches by resource attribute from GET /v1/resource/params', async () => {
    const { user, lastBody, callsTo } = setup();
    await screen.findByText('i-0abc');
    await chooseOption(user, 'Search by', 'Resource Attributes');
    await user.click(screen.getByRole('combobox', { name: 'Attribute' }));
    await user.click(await screen.findByRole('option', { name: 'Instance Type (EC2 Instance)' }));
    expect(callsTo('GET', '/v1/resource/params').length).toBeGreaterThan(0);
    await user.type(screen.getByRole('textbox', { name: 'Attribute value' }), 't3.micro{Enter}');
    await waitFor(() => expect(lastBody().resource_params).toEqual([{ name: 'InstanceType', eq: 't3.micro' }]));
  });

  it('has a tag row whose value is disabled for valueless operators and whose add button needs a key', async () => {
    const { user } = setup();
    await screen.findByText('i-0abc');
    expect(screen.queryByRole('group', { name: 'Tag filters' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Tags' }));
    const row = await screen.findByRole('group', { name: 'Tag filters' });
    const add = within(row).getByRole('button', { name: 'Add tag filter' });
    expect(add).toBeDisabled();
    for (const operator of ['Exists', 'Not Exists', 'Empty', 'Not Empty']) {
      await chooseOption(user, 'Operator', operator);
      expect(within(row).getByRole('textbox', { name: 'Tag Value' })).toBeDisabled();
    }
    for (const operator of ['Equal', 'Not Equal']) {
      await chooseOption(user, 'Operator', operator);
      expect(within(row).getByRole('textbox', { name: 'Tag Value' })).toBeEnabled();
    }
  }, 30_000);

  it('filters by tags; the expander clears them; Reset All restores every default', async () => {
    const { user, lastBody } = setup();
    await screen.findByText('i-0abc');
    await user.click(screen.getByRole('button', { name: 'Tags' }));
    const row = await screen.findByRole('group', { name: 'Tag filters' });
    const add = within(row).getByRole('button', { name: 'Add tag filter' });
    await chooseOption(user, 'Operator', 'Equal');
    await user.type(within(row).getByRole('textbox', { name: 'Tag Key' }), 'env');
    expect(add).toBeEnabled();
    await user.type(within(row).getByRole('textbox', { name: 'Tag Value' }), 'prod, dev');
    await user.click(add);
    await waitFor(() => expect(lastBody().tag).toEqual([{ name: 'env', operator: 'Equal', value: ['prod', 'dev'] }]));
    expect(within(row).getByText('env Equal prod, dev')).toBeInTheDocument();

    await user.type(within(row).getByRole('textbox', { name: 'Tag Key' }), 'owner');
    await chooseOption(user, 'Operator', 'Not Exists');
    await user.click(add);
    await waitFor(() => expect(lastBody().tag).toHaveLength(2));
    expect(lastBody().tag?.[1]).toEqual({ name: 'owner', operator: 'NotExists' });

    // Toggling the expander clears the tag filters.
    await user.click(screen.getByRole('button', { name: 'Tags' }));
    await waitFor(() => expect(lastBody().tag).toBeUndefined());

    // Reset All restores every default.
    await user.click(screen.getByRole('button', { name: 'Tags' }));
    await chooseOption(user, 'Resource State', 'Live');
    await waitFor(() => expect(lastBody().d_time).toEqual({ eq: 0 }));
    await user.click(screen.getByRole('button', { name: 'Reset All' }));
    await waitFor(() => expect(lastBody().d_time).toBeUndefined());
    expect(screen.getByRole('combobox', { name: 'Resource State' })).toHaveTextContent('All States');
  }, 30_000);

  it('exports the filtered resources to CSV through the server', async () => {
    const { user, callsTo } = setup();
    await screen.findByText('i-0abc');
    let href = '';
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      href = this.download;
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:csv', revokeObjectURL: () => undefined }));
    const fetchMock = globalThis.fetch as ReturnType<typeof vi.fn>;
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input: Request, init?: RequestInit) => {
      if (input instanceof Request && new URL(input.url).pathname === '/v1/resource/export') {
        await original(input, init);
        return new Response('Resource ID\ni-0abc\n', { status: 200, headers: { 'Content-Type': 'text/csv' } });
      }
      return original(input, init);
    });
    await user.click(screen.getByRole('button', { name: 'Export to CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(href).toMatch(/^inventory-\d{4}-\d{2}-\d{2}\.csv$/);
    const body = callsTo('POST', '/v1/resource/export')[0].body as ResourceListRequest;
    expect(body).toMatchObject({ order_by: 'c_time', order_desc: true });
    expect(body.count).toBeUndefined();
    click.mockRestore();
  });

  it('says when the CSV export fails', async () => {
    const { user } = setup();
    await screen.findByText('i-0abc');
    const fetchMock = globalThis.fetch as ReturnType<typeof vi.fn>;
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input: Request, init?: RequestInit) =>
      input instanceof Request && new URL(input.url).pathname === '/v1/resource/export'
        ? jsonResponse(500, { message: 'boom' })
        : original(input, init),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Export to CSV' }));
    expect(
      await screen.findByText('Failed to export CSV file. Please try again or contact support if the issue persists.'),
    ).toBeInTheDocument();
  });

  it('opens the side panel: details, history slider over the snapshots, tags, property tree', async () => {
    const { user, callsTo } = setup();
    await user.click(await screen.findByText('i-0abc'));
    const panel = await screen.findByRole('region', { name: 'Resource details' });
    expect(panel).toHaveTextContent('Resource TypeAWS::EC2::Instance');
    expect(panel).toHaveTextContent('Resource IDi-0abc');
    expect(panel).toHaveTextContent('AWS Account111111111111');
    expect(panel).toHaveTextContent('Regionus-east-1');
    expect(panel).toHaveTextContent('StateLive');
    await waitFor(() => expect(callsTo('POST', '/v1/resource/property')).toHaveLength(1));
    expect(callsTo('POST', '/v1/resource/property')[0].body).toEqual({
      account_ids: ['111111111111'],
      resource_id: 'i-0abc',
      resource_type: 'AWS::EC2::Instance',
      region: 'us-east-1',
      order_desc: true,
      order_by: 'c_time',
      count: 8,
    });
    const slider = await within(panel).findByRole('slider');
    expect(slider).toHaveAttribute('aria-valuenow', '1');
    expect(within(panel).getByText('History (2 snapshots)')).toBeInTheDocument();
    expect(panel).toHaveTextContent('Modification Time2026-11-22 09:30 UTC');
    expect(within(within(panel).getByRole('table', { name: 'Tags' })).getByText('staging')).toBeInTheDocument();
    // The older snapshot.
    slider.focus();
    await user.keyboard('{ArrowLeft}');
    expect(panel).toHaveTextContent('Modification Time2026-11-20 14:03 UTC');
    expect(within(within(panel).getByRole('table', { name: 'Tags' })).getByText('prod')).toBeInTheDocument();
    // The property tree: collapsed branches open on click.
    const tree = within(panel).getByRole('tree', { name: 'Properties' });
    expect(tree).toHaveTextContent('InstanceType: t3.micro');
    expect(tree).not.toHaveTextContent('Name: running');
    await user.click(within(tree).getByRole('button', { name: 'Expand State' }));
    expect(tree).toHaveTextContent('Name: running');
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Resource details' })).not.toBeInTheDocument());
  });

  it('shows a deleted resource with its deletion time and "No tags found"', async () => {
    const { user } = setup({
      list: { body: listAnswer([makeResource({ d_time: Date.UTC(2026, 10, 25, 8, 0) / 1000, tags: {} })]) },
      snapshots: [{ c_time: Date.UTC(2026, 10, 20, 14, 3) / 1000, tags: {}, properties: {} }],
    });
    await user.click(await screen.findByText('i-0abc'));
    const panel = await screen.findByRole('region', { name: 'Resource details' });
    expect(panel).toHaveTextContent('StateDeleted on 2026-11-25 08:00 UTC');
    expect(await within(panel).findByText('No tags found')).toBeInTheDocument();
    expect(within(panel).getByText('No properties found')).toBeInTheDocument();
    expect(within(panel).queryByRole('slider')).not.toBeInTheDocument();
  });

  it("shows the server's message when the list cannot be loaded, and an empty table", async () => {
    setup({ list: { status: 500, body: { message: 'The inventory store is unavailable' } } });
    expect(await screen.findByText('The inventory store is unavailable')).toBeInTheDocument();
    expect(screen.getByText('No resources found')).toBeInTheDocument();
  });

  it('lists the spend whose resource is not in the inventory', async () => {
    const { callsTo } = setup();
    const section = await screen.findByRole('region', { name: 'Spend not in the inventory' });
    expect(await within(section).findByText('vol-gone')).toBeInTheDocument();
    expect(within(section).getByRole('table', { name: 'Spend not in the inventory' })).toHaveTextContent('vol-goneAWS111111111111AmazonEC2$30.00');
    expect(section).toHaveTextContent('Total: $31.50 over 3 resource IDs (the 1 most expensive below); also €4.00 in other currencies');
    expect(callsTo('GET', '/v1/resource/unmatched-spend')).toHaveLength(1);
    const url = (globalThis.fetch as ReturnType<typeof vi.fn>).mock.calls
      .map(([request]) => (request as Request).url)
      .find((u) => u.includes('unmatched-spend'))!;
    expect(new URL(url).searchParams.get('start_time')).toBe(String(Date.UTC(2026, 9, 28) / 1000));
  });
});

describe('Tags Search variant', () => {
  it('has the tag row open, an extra Tags column and Show Untagged, which clears the tag filters', async () => {
    const { user, lastBody } = setup({}, 'tags');
    const table = await screen.findByRole('table', { name: 'Resources' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toContain('Tags');
    expect(await within(table).findByText('env: prod')).toBeInTheDocument();
    const row = screen.getByRole('group', { name: 'Tag filters' });
    await user.type(within(row).getByRole('textbox', { name: 'Tag Key' }), 'env');
    await user.click(within(row).getByRole('button', { name: 'Add tag filter' }));
    // Equal with no value: the key must exist (the server refuses Equal without a value).
    await waitFor(() => expect(lastBody().tag).toEqual([{ name: 'env', operator: 'Exists' }]));
    expect(within(row).getByText('env Exists')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Show Untagged' }));
    await waitFor(() => expect(lastBody().not_tagged).toBe(true));
    expect(lastBody().tag).toBeUndefined();
    await user.click(screen.getByRole('checkbox', { name: 'Show Untagged' }));
    await waitFor(() => expect(lastBody().not_tagged).toBeUndefined());
    expect(screen.queryByRole('region', { name: 'Spend not in the inventory' })).not.toBeInTheDocument();
  });
});
