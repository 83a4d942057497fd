import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { CostRow } from '@/lib/cost';
import { readPresets, type FilterPreset } from '@/lib/cost-filters';
import { makeAccount, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { CostQueryPage } from './cost-query-page';

const NOW = new Date('2026-11-26T15:00:00.000Z');

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});

const row = (service: string, amount: number): CostRow => ({ service, amount, grouping_values: [service], grouping_path: service });

const OPTIONS = {
  accounts: ['111122223333'],
  account_names: { '111122223333': 'Production' },
  accounts_by_provider: { aws: ['111122223333'] },
  regions: ['eu-west-1', 'us-east-1'],
  services: ['AmazonEC2', 'AmazonS3'],
  cloud_providers: ['aws', 'gcp'],
  tags: { team: ['web', 'data'] },
  cost_type: [],
  usage_types: [],
  warnings: [],
};

function answer(data: CostRow[], warnings: string[] = []) {
  const total = data.reduce((sum, r) => sum + r.amount, 0);
  return {
    data,
    summary: { accrued_cost: total, previous_cost: 0, currency: 'USD' },
    total_groups: data.length,
    warnings,
    currency: 'USD',
    converted: false,
    otherCurrencies: [],
  };
}

function setup(extra: Record<string, MockReply> = {}) {
  signInAs(makeUser());
  const api = mockApi({
    'GET /v1/account': { body: [makeAccount()] },
    'POST /v2/cost/filters': { body: OPTIONS },
    'POST /v1/query': { body: answer([row('AmazonEC2', 150), row('=cmd|evil', 50)], ['Filter 3: ignored unknown field colour']) },
    ...extra,
  });
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/cost/query" element={<CostQueryPage />} />
    </Routes>,
    { route: '/cost/query' },
  );
  const queryBodies = () => api.callsTo('POST', '/v1/query').map((c) => c.body as Record<string, unknown>);
  return { ...api, ...rendered, queryBodies };
}

type User = ReturnType<typeof setup>['user'];

async function choose(user: User, name: string, option: string) {
  await user.click(screen.getByRole('combobox', { name }));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Field, operator and one typed value, then Add Filter. */
async function addFilter(user: User, field: string, operator: string, value: string) {
  const builder = screen.getByRole('group', { name: 'New filter' });
  await choose(user, 'Field', field);
  await choose(user, 'Operator', operator);
  await user.type(within(builder).getByRole(field === 'Cost Amount' ? 'spinbutton' : 'combobox', { name: 'Value' }), value);
  await user.click(within(builder).getByRole('button', { name: 'Add Filter' }));
}

const addedFilters = () => {
  const list = screen.queryByRole('list', { name: 'Added filters' });
  return list ? within(list).getAllByRole('listitem').map((item) => item.textContent) : [];
};

const alertText = () => screen.getByRole('alert').textContent;

describe('Cost Query page', () => {
  it('offers the six fields; choosing a field resets the operator and value, choosing an operator resets the value', async () => {
    const { user } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Cost Query' })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Field' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Cloud Provider', 'Service', 'Region', 'Account', 'Cost Amount', 'Tag']);
    await user.click(screen.getByRole('option', { name: 'Service' }));
    await user.click(screen.getByRole('combobox', { name: 'Operator' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'equals', 'not equals', 'in', 'not in', 'contains', 'not contains', 'starts with', 'ends with',
    ]);
    await user.click(screen.getByRole('option', { name: 'contains' }));
    const builder = screen.getByRole('group', { name: 'New filter' });
    await user.type(within(builder).getByRole('combobox', { name: 'Value' }), 'EC2');

    await choose(user, 'Operator', 'equals');
    expect(within(builder).getByRole('combobox', { name: 'Value' })).toHaveValue('');
    await user.type(within(builder).getByRole('combobox', { name: 'Value' }), 'S3');

    await choose(user, 'Field', 'Cost Amount');
    expect(screen.getByRole('combobox', { name: 'Operator' })).not.toHaveTextContent('equals');
    expect(within(builder).getByRole('textbox', { name: 'Value' })).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: 'Operator' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['greater than', 'less than', 'between']);
    await user.click(screen.getByRole('option', { name: 'between' }));
    expect(within(builder).getByRole('spinbutton', { name: 'From' })).toBeInTheDocument();
    expect(within(builder).getByRole('spinbutton', { name: 'To' })).toBeInTheDocument();
  }, 60_000);

  it('names what is missing on Add Filter, several joined', async () => {
    const { user } = setup();
    const add = screen.getByRole('button', { name: 'Add Filter' });
    await user.click(add);
    expect(alertText()).toBe('Please select a field · Please select an operator · Please enter a value');
    await choose(user, 'Field', 'Region');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(add);
    expect(alertText()).toBe('Please select an operator · Please enter a value');
    await choose(user, 'Operator', 'equals');
    await user.click(add);
    expect(alertText()).toBe('Please enter a value');
    await choose(user, 'Field', 'Cost Amount');
    await choose(user, 'Operator', 'between');
    await user.type(screen.getByRole('spinbutton', { name: 'From' }), '10');
    await user.click(add);
    expect(alertText()).toBe('Please enter a value');
    expect(addedFilters()).toEqual([]);
  }, 60_000);

  it('adds filters from the tenant\'s values, removes one, toggles the logic and clears all', async () => {
    const { user } = setup();
    const builder = screen.getByRole('group', { name: 'New filter' });
    await choose(user, 'Field', 'Account');
    await choose(user, 'Operator', 'equals');
    await user.click(within(builder).getByRole('combobox', { name: 'Value' }));
    await user.click(await screen.findByRole('option', { name: 'Production (111122223333)' }));
    await user.click(within(builder).getByRole('button', { name: 'Add Filter' }));
    // The row starts over.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Field' })).not.toHaveTextContent('Account'));

    await choose(user, 'Field', 'Tag');
    await user.type(within(builder).getByRole('combobox', { name: 'Tag key' }), 'team');
    await choose(user, 'Operator', 'in');
    await user.click(within(builder).getByRole('combobox', { name: 'Values' }));
    await user.click(await screen.findByRole('option', { name: 'web' }));
    await user.click(within(builder).getByRole('combobox', { name: 'Values' }));
    await user.click(await screen.findByRole('option', { name: 'data' }));
    await user.click(within(builder).getByRole('button', { name: 'Add Filter' }));
    await addFilter(user, 'Cost Amount', 'greater than', '100');
    expect(addedFilters()).toEqual(['Account equals Production (111122223333)', 'Tag team in web, data', 'Cost Amount greater than 100']);

    await user.click(screen.getByRole('button', { name: 'Remove filter Tag team in web, data' }));
    expect(addedFilters()).toEqual(['Account equals Production (111122223333)', 'Cost Amount greater than 100']);
    expect(screen.getByRole('button', { name: 'AND' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'OR' }));
    expect(screen.getByRole('button', { name: 'OR' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(addedFilters()).toEqual([]);
    expect(screen.getByText('No filters: the query covers every cost of the period.')).toBeInTheDocument();
  }, 60_000);

  it('stops at the module limit: Maximum 10 filters allowed', async () => {
    // Nine filters from a preset, then two added by hand.
    const nine = Array.from({ length: 9 }, (_, i) => ({ id: `f${i}`, field: 'region', operator: 'equals', value: [`r${i}`], logic: 'and' as const, level: 1 as const, created: '' }));
    localStorage.setItem('filter_presets', JSON.stringify([{ id: 'p9', name: 'Nine', filters: nine, logic: 'and', module: 'cost_query', created: '' }]));
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.click(within(await screen.findByRole('list', { name: 'Saved presets' })).getByRole('button', { name: /^Nine/ }));
    expect(addedFilters()).toHaveLength(9);
    await addFilter(user, 'Service', 'contains', 's10');
    expect(addedFilters()).toHaveLength(10);
    await addFilter(user, 'Service', 'contains', 's11');
    expect(alertText()).toBe('Maximum 10 filters allowed');
    expect(addedFilters()).toHaveLength(10);
  }, 60_000);

  it('runs the query: the body, the total, rows with their share, the warnings, and the CSV', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:x')), revokeObjectURL: vi.fn() }));
    const { user, queryBodies } = setup();
    expect(screen.getByText('Add filters, choose the period and grouping, then Run Query.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await addFilter(user, 'Service', 'contains', 'EC2');
    await choose(user, 'Field', 'Cost Amount');
    await choose(user, 'Operator', 'between');
    await user.type(screen.getByRole('spinbutton', { name: 'From' }), '10');
    await user.type(screen.getByRole('spinbutton', { name: 'To' }), '250.5');
    await user.click(screen.getByRole('button', { name: 'Add Filter' }));
    await user.click(screen.getByRole('button', { name: 'OR' }));
    await choose(user, 'Group By', 'Region');
    await user.click(screen.getByRole('button', { name: 'Run Query' }));

    const table = await screen.findByRole('table', { name: 'Query results by region' });
    expect(queryBodies()).toEqual([
      {
        filters: [
          { field: 'service_name', operator: 'contains', value: 'EC2' },
          { field: 'cost_amount', operator: 'between', value: [10, 250.5] },
        ],
        logic: 'or',
        start_time: '2026-11-01T00:00:00.000Z',
        end_time: '2026-11-26T23:59:59.999Z',
        group_by: 'region',
      },
    ]);
    expect(screen.getByTestId('query-total')).toHaveTextContent('$200.00');
    const lines = within(table)
      .getAllByRole('row')
      .map((line) => [...line.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(lines).toEqual([
      ['Region', 'Amount', 'Share'],
      ['Unknown', '$150.00', '75.0%'],
      ['Unknown', '$50.00', '25.0%'],
      ['Total', '$200.00', '100.0%'],
    ]);
    expect(screen.getByText('Filter 3: ignored unknown field colour')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(blobs).toHaveLength(1);
    expect(await blobs[0].text()).toBe('Region,Amount (USD),Share %\nUnknown,150,75\nUnknown,50,25\nTotal,200,100\n');

    // A change after the run says the results are of the query as it ran.
    await user.click(screen.getByRole('button', { name: 'AND' }));
    expect(screen.getByText(/changed since this query ran/)).toBeInTheDocument();
  }, 60_000);

  it('shows the server\'s 422 message as it gives it', async () => {
    const { user } = setup({
      'POST /v1/query': { status: 422, body: { message: 'Filter 1: From amount cannot exceed to amount', field: 'filters' } },
    });
    await user.click(screen.getByRole('button', { name: 'Run Query' }));
    expect(await screen.findByText('Filter 1: From amount cannot exceed to amount')).toBeInTheDocument();
  }, 60_000);

  it('shows the empty state when nothing matches', async () => {
    const { user } = setup({ 'POST /v1/query': { body: answer([]) } });
    await user.click(screen.getByRole('button', { name: 'Run Query' }));
    expect(await screen.findByText('No cost data available')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  }, 60_000);

  it('saves a preset (No filters to save when empty), loads it, and an edit or delete clears the active one', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Save preset' }));
    expect(alertText()).toBe('No filters to save');
    expect(readPresets()).toEqual([]);

    await addFilter(user, 'Service', 'contains', 'EC2');
    await user.click(screen.getByRole('button', { name: 'OR' }));
    await user.click(screen.getByRole('button', { name: 'Save preset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save preset' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Preset name is required')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'EC2 spend');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Compute only');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Preset: EC2 spend')).toBeInTheDocument();

    const stored = readPresets();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'EC2 spend', description: 'Compute only', module: 'cost_query', logic: 'or' } satisfies Partial<FilterPreset>);
    expect(stored[0].filters.map((f) => [f.field, f.operator, f.value])).toEqual([['service_name', 'contains', ['EC2']]]);

    // Editing the filters clears the active preset; loading it brings back its filters and logic.
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await user.click(screen.getByRole('button', { name: 'AND' }));
    expect(screen.queryByText('Preset: EC2 spend')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.click(within(await screen.findByRole('list', { name: 'Saved presets' })).getByRole('button', { name: /^EC2 spend/ }));
    expect(addedFilters()).toEqual(['Service contains EC2']);
    expect(screen.getByRole('button', { name: 'OR' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Preset: EC2 spend')).toBeInTheDocument();

    // Deleting the active preset clears it.
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    await user.click(await screen.findByRole('button', { name: 'Delete preset EC2 spend' }));
    expect(screen.queryByText('Preset: EC2 spend')).toBeNull();
    expect(readPresets()).toEqual([]);
    expect(screen.getByText('No saved presets')).toBeInTheDocument();
  }, 60_000);

  it('lists only this page\'s presets from localStorage "filter_presets"', async () => {
    const other: FilterPreset = { id: 'p1', name: 'Advanced one', filters: [], logic: 'and', module: 'cost_analysis', created: '' };
    const mine: FilterPreset = {
      id: 'p2',
      name: 'Regions',
      filters: [{ id: 'f', field: 'region', operator: 'in', value: ['eu-west-1'], logic: 'and', level: 1, created: '' }],
      logic: 'and',
      module: 'cost_query',
      created: '',
    };
    localStorage.setItem('filter_presets', JSON.stringify([other, mine]));
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Presets' }));
    const list = await screen.findByRole('list', { name: 'Saved presets' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Regions']);
  });
});
