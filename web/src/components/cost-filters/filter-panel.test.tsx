import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { resolveTimeRange } from '@/lib/cost';
import type { FlatFilter } from '@/lib/cost-filters';
import { mockApi, type MockCall } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { FilterPanel } from './filter-panel';
import { FiltersButton } from './filters-button';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const november = resolveTimeRange('thisMonth', undefined, NOW);

function answer(overrides: Record<string, unknown> = {}) {
  return {
    accounts: [], account_names: {}, accounts_by_provider: {}, regions: [], services: [], tags: {},
    cloud_providers: [], cost_type: [], usage_types: [], warnings: [], ...overrides,
  };
}

const OPTIONS: Record<string, ReturnType<typeof answer>> = {
  aws: answer({
    services: ['AmazonEC2', 'AmazonS3'],
    regions: ['us-east-1', 'eu-west-1'],
    accounts: ['111111111111'],
    accounts_by_provider: { aws: ['111111111111'] },
    account_names: { '111111111111': 'Production' },
    tags: { env: ['prod', 'dev'] },
    cost_type: ['Usage', 'Tax'],
  }),
  gcp: answer({ services: ['Compute Engine'], accounts: ['shop-prod'], accounts_by_provider: { gcp: ['shop-prod'] } }),
};

function providerOf(call: MockCall): string | undefined {
  return (call.body as { filters?: Array<{ cloud_providers?: Array<{ values: string[] }> }> }).filters?.[0]?.cloud_providers?.[0]?.values[0];
}

function mockOptions(failing: string[] = []) {
  return mockApi({
    'POST /v2/cost/filters': (call) => {
      const provider = providerOf(call);
      if (!provider) return { body: answer({ cloud_providers: ['aws', 'gcp'] }) };
      if (failing.includes(provider)) return { status: 500, body: { message: 'options unavailable' } };
      return { body: OPTIONS[provider] ?? answer() };
    },
  });
}

function Harness({ initial = [], onApply, module, onIncludeChargeType }: { initial?: FlatFilter[]; onApply(filters: FlatFilter[]): void; module?: string; onIncludeChargeType?(chargeType: string): void }) {
  const [applied, setApplied] = useState(initial);
  const [open, setOpen] = useState(true);
  return (
    <>
      <FiltersButton count={applied.length} onClick={() => setOpen(true)} />
      <FilterPanel
        open={open}
        onClose={() => setOpen(false)}
        applied={applied}
        module={module}
        timeRange={november}
        onIncludeChargeType={onIncludeChargeType}
        onApply={(filters) => {
          onApply(filters);
          setApplied(filters);
        }}
      />
    </>
  );
}

function setup(options: { initial?: FlatFilter[]; failing?: string[]; module?: string; charges?: boolean } = {}) {
  const api = mockOptions(options.failing);
  const onApply = vi.fn();
  const onIncludeChargeType = vi.fn();
  const rendered = renderWithProviders(
    <Harness initial={options.initial} onApply={onApply} module={options.module} onIncludeChargeType={options.charges ? onIncludeChargeType : undefined} />,
  );
  return { ...rendered, api, onApply, onIncludeChargeType };
}

const dialog = () => screen.getByRole('dialog', { name: 'Filters' });
const rule = (n: number) => within(dialog()).getByRole('group', { name: new RegExp(`^Rule ${n}`) });

async function pickOption(user: ReturnType<typeof setup>['user'], combobox: HTMLElement, option: string) {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
}

async function addRule(user: ReturnType<typeof setup>['user'], provider: string) {
  await user.click(within(dialog()).getByRole('button', { name: 'New Rule' }));
  const rules = within(dialog()).getAllByRole('group', { name: /^Rule \d/ });
  const added = rules[rules.length - 1];
  await pickOption(user, within(added).getByRole('combobox', { name: 'Cloud Provider' }), provider);
  return rules.length;
}

async function addCondition(user: ReturnType<typeof setup>['user'], ruleNumber: number, field: string) {
  await user.click(within(rule(ruleNumber)).getByRole('button', { name: 'Condition' }));
  const conditions = within(rule(ruleNumber)).getAllByRole('group', { name: /condition$/ });
  const row = conditions[conditions.length - 1];
  await pickOption(user, within(row).getByRole('combobox', { name: /^Field/ }), field);
  return within(rule(ruleNumber)).getAllByRole('group', { name: /condition$/ })[conditions.length - 1];
}

const CREATED = expect.any(String);

describe('filter panel', () => {
  it('starts empty: the empty message, Clear All disabled, a close button', async () => {
    const { user } = setup();
    expect(dialog()).toBeInTheDocument();
    expect(within(dialog()).getByText('Click "New Rule" to create your first filtering rule')).toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: 'Clear All' })).toBeDisabled();
    await user.click(within(dialog()).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('builds a rule as a person does and applies it as flat filters', async () => {
    const { user, onApply } = setup();
    await addRule(user, 'AWS');
    expect(within(dialog()).getByRole('button', { name: 'Clear All' })).toBeEnabled();
    const service = await addCondition(user, 1, 'Service');
    await pickOption(user, within(service).getByRole('combobox', { name: 'Values' }), 'AmazonEC2');
    const region = await addCondition(user, 1, 'Region');
    await pickOption(user, within(region).getByRole('combobox', { name: /^Operator/ }), 'not equals');
    await user.type(within(region).getByRole('combobox', { name: 'Values' }), 'eu-west-1, ap-south-1{Enter}');
    expect(within(rule(1)).getByText('AND')).toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));

    expect(onApply).toHaveBeenCalledTimes(1);
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters).toEqual([
      { id: expect.any(String), field: 'cloud_provider', operator: 'equals', value: ['aws'], logic: 'and', level: 0, created: CREATED },
      { id: expect.any(String), field: 'service_name', operator: 'equals', value: ['AmazonEC2'], logic: 'and', level: 1, created: CREATED },
      { id: expect.any(String), field: 'region', operator: 'not_equals', value: ['eu-west-1', 'ap-south-1'], logic: 'and', level: 1, created: CREATED },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Filters (3 applied)' })).toBeInTheDocument();
  });

  it('ORs rules: the second rule\'s provider filter has logic "or"', async () => {
    const { user, onApply } = setup();
    await addRule(user, 'AWS');
    await addRule(user, 'Azure');
    expect(within(dialog()).getByText('OR')).toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters.map((f) => [f.field, f.value, f.logic])).toEqual([
      ['cloud_provider', ['aws'], 'and'],
      ['cloud_provider', ['azure'], 'or'],
    ]);
  });

  it('keeps a typed value that was not confirmed with Enter when Apply is clicked', async () => {
    const { user, onApply } = setup();
    await addRule(user, 'AWS');
    const row = await addCondition(user, 1, 'Region');
    await user.type(within(row).getByRole('combobox', { name: 'Values' }), 'ca-central-1');
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters[1]).toMatchObject({ field: 'region', value: ['ca-central-1'] });
  });

  it('labels accounts "Projects" on GCP rules', async () => {
    const { user } = setup();
    await addRule(user, 'GCP');
    await user.click(within(rule(1)).getByRole('button', { name: 'Condition' }));
    await user.click(within(rule(1)).getByRole('combobox', { name: /^Field/ }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Service', 'Region', 'Projects', 'Usage Type', 'Tag']);
    await user.click(screen.getByRole('option', { name: 'Projects' }));
    const row = within(rule(1)).getByRole('group', { name: 'Projects condition' });
    await pickOption(user, within(row).getByRole('combobox', { name: 'Values' }), 'shop-prod');
  });

  it('offers the Condition button only once a provider is chosen', async () => {
    const { user } = setup();
    await user.click(within(dialog()).getByRole('button', { name: 'New Rule' }));
    expect(within(rule(1)).queryByRole('button', { name: 'Condition' })).not.toBeInTheDocument();
  });

  it('says a provider is needed first when conditions are added after clearing it', async () => {
    const { user } = setup();
    await addRule(user, 'AWS');
    await addCondition(user, 1, 'Service');
    await user.click(within(rule(1)).getByRole('combobox', { name: 'Cloud Provider' }));
    await user.click(within(rule(1)).getByRole('button', { name: 'Clear' }));
    expect(within(rule(1)).getByRole('combobox', { name: 'Cloud Provider' })).toHaveValue('');
    await user.click(within(rule(1)).getByRole('button', { name: 'Condition' }));
    expect(within(dialog()).getByRole('alert')).toHaveTextContent('Please select a Cloud Provider for this rule first.');
    expect(within(rule(1)).getAllByRole('group', { name: /condition$/ })).toHaveLength(1);
  });

  it('refuses Apply while a rule has no provider', async () => {
    const { user, onApply } = setup();
    await user.click(within(dialog()).getByRole('button', { name: 'New Rule' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    expect(within(dialog()).getByRole('alert')).toHaveTextContent('Please select a Cloud Provider for all rules.');
    expect(onApply).not.toHaveBeenCalled();
  });

  it('refuses Apply while a condition has no field or no value', async () => {
    const { user, onApply } = setup();
    await addRule(user, 'AWS');
    await user.click(within(rule(1)).getByRole('button', { name: 'Condition' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    expect(within(dialog()).getByRole('alert')).toHaveTextContent('Please complete all filter conditions.');
    const row = within(rule(1)).getByRole('group', { name: 'New condition' });
    await pickOption(user, within(row).getByRole('combobox', { name: /^Field/ }), 'Region');
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    expect(within(dialog()).getByRole('alert')).toHaveTextContent('Please complete all filter conditions.');
    expect(onApply).not.toHaveBeenCalled();
  });

  it('applies a tag condition with a key and no values (the key must exist)', async () => {
    const { user, onApply } = setup();
    await addRule(user, 'AWS');
    const row = await addCondition(user, 1, 'Tag');
    await pickOption(user, within(row).getByRole('combobox', { name: 'Tag key' }), 'env');
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters[1]).toMatchObject({ field: 'tags', tagKey: 'env', tagValueOperator: 'equals', value: [] });
  });

  it('a tag condition "is missing" / "is present" has no Values box and applies without values', async () => {
    const { user, onApply } = setup();
    await addRule(user, 'AWS');
    const row = await addCondition(user, 1, 'Tag');
    await pickOption(user, within(row).getByRole('combobox', { name: 'Tag key' }), 'env');
    await user.click(within(row).getByRole('combobox', { name: /^Operator/ }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['equals', 'not equals', 'is missing', 'is present']);
    await user.click(within(listbox).getByRole('option', { name: 'is missing' }));
    expect(within(row).queryByRole('combobox', { name: 'Values' })).not.toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters[1]).toMatchObject({ field: 'tags', tagKey: 'env', tagValueOperator: 'is_empty', value: [] });
  });

  it('offers only equals and not equals for the other fields', async () => {
    const { user } = setup();
    await addRule(user, 'AWS');
    const row = await addCondition(user, 1, 'Service');
    await user.click(within(row).getByRole('combobox', { name: /^Operator/ }));
    expect(within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['equals', 'not equals']);
  });

  it('keeps the module limit', async () => {
    const { user, onApply } = setup({ module: 'integrations' });
    await addRule(user, 'AWS');
    const row = await addCondition(user, 1, 'Service');
    await pickOption(user, within(row).getByRole('combobox', { name: 'Values' }), 'AmazonS3');
    const second = await addCondition(user, 1, 'Region');
    await pickOption(user, within(second).getByRole('combobox', { name: 'Values' }), 'us-east-1');
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    expect(within(dialog()).getByRole('alert')).toHaveTextContent('Maximum 2 filters allowed');
    expect(onApply).not.toHaveBeenCalled();
  });

  it('Cancel discards the edits and restores the applied rules', async () => {
    const initial: FlatFilter[] = [
      { id: 'p', field: 'cloud_provider', operator: 'equals', value: ['aws'], logic: 'and', level: 0, created: NOW.toISOString() },
      { id: 's', field: 'service_name', operator: 'equals', value: ['AmazonS3'], logic: 'and', level: 1, created: NOW.toISOString() },
    ];
    const { user, onApply } = setup({ initial });
    expect(within(rule(1)).getByText('AmazonS3')).toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Clear All' }));
    expect(within(dialog()).getByText('Click "New Rule" to create your first filtering rule')).toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onApply).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Filters (2 applied)' }));
    expect(within(rule(1)).getByRole('combobox', { name: 'Cloud Provider' })).toHaveValue('AWS');
    expect(within(rule(1)).getByText('AmazonS3')).toBeInTheDocument();
  });

  it('Clear All then Apply clears the filters', async () => {
    const initial: FlatFilter[] = [{ id: 'p', field: 'cloud_provider', operator: 'equals', value: ['gcp'], logic: 'and', level: 0, created: NOW.toISOString() }];
    const { user, onApply } = setup({ initial });
    await user.click(within(dialog()).getByRole('button', { name: 'Clear All' }));
    expect(within(dialog()).getByRole('button', { name: 'Clear All' })).toBeDisabled();
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    expect(onApply).toHaveBeenCalledWith([]);
    // The page is hidden from the accessibility tree until the panel has closed.
    expect(await screen.findByRole('button', { name: 'Filters' })).toBeInTheDocument();
  });

  it('loads options per provider for the period, with a spinner meanwhile', async () => {
    const { user, api } = setup();
    await addRule(user, 'AWS');
    await waitFor(() => expect(within(dialog()).queryByLabelText('Loading filter options')).not.toBeInTheDocument());
    const bodies = api.callsTo('POST', '/v2/cost/filters').map((c) => c.body);
    expect(bodies).toContainEqual({ start_date: '2026-11-01', end_date: '2026-11-23', filters: [] });
    expect(bodies).toContainEqual({
      start_date: '2026-11-01',
      end_date: '2026-11-23',
      filters: [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['aws'] }] }],
    });
    const row = await addCondition(user, 1, 'Account');
    await user.click(within(row).getByRole('combobox', { name: 'Values' }));
    expect(await screen.findByRole('option', { name: 'Production (111111111111)' })).toBeInTheDocument();
  });

  it('on a provider\'s failure says so and takes typed values and a typed tag key', async () => {
    const { user, onApply } = setup({ failing: ['gcp'] });
    expect(await within(dialog()).findByText('Failed to fetch options for: GCP')).toBeInTheDocument();
    await addRule(user, 'GCP');
    const service = await addCondition(user, 1, 'Service');
    await user.click(within(service).getByRole('combobox', { name: 'Values' }));
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    await user.type(within(service).getByRole('combobox', { name: 'Values' }), 'BigQuery,  Cloud Storage ,{Enter}');
    const tag = await addCondition(user, 1, 'Tag');
    await user.type(within(tag).getByRole('combobox', { name: 'Tag key' }), 'team{Enter}');
    await user.type(within(tag).getByRole('combobox', { name: 'Values' }), 'data{Enter}');
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters.slice(1).map((f) => [f.field, f.value, f.tagKey])).toEqual([
      ['service_name', ['BigQuery', 'Cloud Storage'], undefined],
      ['tags', ['data'], 'team'],
    ]);
  });
});

describe('FiltersButton', () => {
  it('shows the applied count as a badge', async () => {
    const onClick = vi.fn();
    const { user, rerender } = renderWithProviders(<FiltersButton count={0} onClick={onClick} />);
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    rerender(<FiltersButton count={4} onClick={onClick} />);
    expect(screen.getByRole('button', { name: 'Filters (4 applied)' })).toBeInTheDocument();
    expect(screen.getByText('4')).toBeInTheDocument();
  });
});

describe('filter panel layout and limits (spec 1 §2.12, §9)', () => {
  it('is 720px wide (at most 90vw) and at most 600px high', () => {
    setup();
    expect(dialog()).toHaveStyle({ width: '720px', maxWidth: '90vw', maxHeight: '600px' });
  });

  it('shows a spinner while the provider options load', async () => {
    setup();
    expect(within(dialog()).getByRole('progressbar', { name: 'Loading filter options' })).toBeInTheDocument();
    await waitFor(() => expect(within(dialog()).queryByRole('progressbar', { name: 'Loading filter options' })).not.toBeInTheDocument());
  });

  it('reads each rule as "from" a provider, with the fields Service, Region, Account, Usage Type and Tag', async () => {
    const { user } = setup();
    await addRule(user, 'AWS');
    await addRule(user, 'GCP');
    expect(within(rule(1)).getByText('from')).toBeInTheDocument();
    expect(within(rule(2)).getByText('from')).toBeInTheDocument();
    await user.click(within(rule(1)).getByRole('button', { name: 'Condition' }));
    await user.click(within(rule(1)).getByRole('combobox', { name: /^Field/ }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Service', 'Region', 'Account', 'Usage Type', 'Tag']);
  });

  it('keeps every dropdown within 200px', async () => {
    const { user } = setup();
    await addRule(user, 'AWS');
    await user.click(within(rule(1)).getByRole('combobox', { name: 'Cloud Provider' }));
    expect(screen.getByRole('listbox')).toHaveStyle({ maxHeight: '200px' });
    await user.keyboard('{Escape}');
    const row = await addCondition(user, 1, 'Tag');
    await user.click(within(row).getByRole('combobox', { name: 'Tag key' }));
    expect(screen.getByRole('listbox')).toHaveStyle({ maxHeight: '200px' });
    await user.keyboard('{Escape}');
    await user.click(within(row).getByRole('combobox', { name: /^Operator/ }));
    expect(screen.getByRole('listbox').closest('.MuiPaper-root')).toHaveStyle({ maxHeight: '200px' });
    await user.keyboard('{Escape}');
    await user.click(within(row).getByRole('combobox', { name: /^Field/ }));
    expect(screen.getByRole('listbox').closest('.MuiPaper-root')).toHaveStyle({ maxHeight: '200px' });
    await user.click(screen.getByRole('option', { name: 'Service' }));
    await user.click(within(rule(1)).getByRole('combobox', { name: 'Values' }));
    expect(screen.getByRole('listbox')).toHaveStyle({ maxHeight: '200px' });
  });

  it('shows at most 2 chips of a condition\'s values, then how many more', async () => {
    const { user } = setup();
    await addRule(user, 'AWS');
    const row = await addCondition(user, 1, 'Region');
    await user.type(within(row).getByRole('combobox', { name: 'Values' }), 'us-east-1, eu-west-1, ap-south-1, ca-central-1{Enter}');
    await user.click(within(rule(1)).getByText('from'));
    expect(within(row).getByText('us-east-1')).toBeInTheDocument();
    expect(within(row).getByText('eu-west-1')).toBeInTheDocument();
    expect(within(row).queryByText('ap-south-1')).not.toBeInTheDocument();
    expect(within(row).getByText('+2')).toBeInTheDocument();
  });

  it('takes a typed tag key of at most 100 characters', async () => {
    const { user, onApply } = setup({ failing: ['aws'] });
    await addRule(user, 'AWS');
    const row = await addCondition(user, 1, 'Tag');
    await user.type(within(row).getByRole('combobox', { name: 'Tag key' }), `${'k'.repeat(120)}{Enter}`);
    await user.click(within(dialog()).getByRole('button', { name: 'Apply' }));
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters[1]).toMatchObject({ field: 'tags', tagKey: 'k'.repeat(100) });
  });
});

describe('filter panel: Search all values', () => {
  const search = () => within(dialog()).getByRole('combobox', { name: 'Search all values' });
  const optionsLoaded = () => waitFor(() => expect(within(dialog()).queryByLabelText('Loading filter options')).not.toBeInTheDocument(), { timeout: 3000 });

  it('has the focus when the panel opens: typing needs no click', async () => {
    const { user } = setup();
    await optionsLoaded();
    expect(search()).toHaveFocus();
    await user.keyboard('eu-w');
    expect(await screen.findByRole('option', { name: /^Region · eu-west-1/ })).toBeInTheDocument();
    // Closed and opened again: the focus is back in the box.
    await user.keyboard('{Escape}{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await waitFor(() => expect(search()).toHaveFocus());
  });

  it('type "untagged", pick "Tag · env is missing": "env is missing" for every provider, applied', async () => {
    const { user, onApply } = setup();
    await optionsLoaded();
    await user.keyboard('untagged');
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['Tag · env is missingAWS, GCP']);
    await user.click(within(listbox).getByRole('option', { name: /^Tag · env is missing/ }));
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters.map(({ field, value, tagKey, tagValueOperator, logic }) => ({ field, value, tagKey, tagValueOperator, logic }))).toEqual([
      { field: 'cloud_provider', value: ['aws'], tagKey: undefined, tagValueOperator: undefined, logic: 'and' },
      { field: 'tags', value: [], tagKey: 'env', tagValueOperator: 'is_empty', logic: 'and' },
      { field: 'cloud_provider', value: ['gcp'], tagKey: undefined, tagValueOperator: undefined, logic: 'or' },
      { field: 'tags', value: [], tagKey: 'env', tagValueOperator: 'is_empty', logic: 'and' },
    ]);
  });

  it('sits above the rules and lists nothing under 2 characters', async () => {
    const { user } = setup();
    await optionsLoaded();
    const box = search();
    expect(box.compareDocumentPosition(within(dialog()).getByRole('button', { name: 'New Rule' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.type(box, 'e');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.type(box, 'u');
    expect(await screen.findByRole('option', { name: /^Region · eu-west-1/ })).toBeInTheDocument();
  });

  it('type "ec2", pick the service: the condition is added and applied', async () => {
    const { user, onApply } = setup();
    await optionsLoaded();
    await user.type(search(), 'ec2');
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['Service · AmazonEC2AWS']);
    expect(within(listbox).getByText('Service')).toBeInTheDocument();
    await user.click(within(listbox).getByRole('option', { name: /^Service · AmazonEC2/ }));
    expect(onApply).toHaveBeenCalledTimes(1);
    expect(onApply.mock.calls[0][0]).toEqual([
      { id: expect.any(String), field: 'cloud_provider', operator: 'equals', value: ['aws'], logic: 'and', level: 0, created: CREATED },
      { id: expect.any(String), field: 'service_name', operator: 'equals', value: ['AmazonEC2'], logic: 'and', level: 1, created: CREATED },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Filters (2 applied)' })).toBeInTheDocument();
  });

  it('is keyboard operable: arrows and Enter pick a match, grouped by dimension', async () => {
    const { user, onApply } = setup();
    await optionsLoaded();
    await user.type(search(), 'PRO');
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['Account · Production (111111111111)AWS', 'Account · shop-prodGCP', 'Tag value · env = prodAWS']);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters.map(({ field, value, logic }) => ({ field, value, logic }))).toEqual([
      { field: 'cloud_provider', value: ['gcp'], logic: 'and' },
      { field: 'account_id', value: ['shop-prod'], logic: 'and' },
    ]);
  });

  it('adds to the rule of the value’s provider, beside the conditions there', async () => {
    const initial: FlatFilter[] = [
      { id: 'p1', field: 'cloud_provider', operator: 'equals', value: ['aws'], logic: 'and', level: 0, created: '2026-11-01T00:00:00.000Z' },
      { id: 'c1', field: 'service_name', operator: 'equals', value: ['AmazonEC2'], logic: 'and', level: 1, created: '2026-11-01T00:00:00.000Z' },
    ];
    const { user, onApply } = setup({ initial });
    await optionsLoaded();
    await user.type(search(), 'dev');
    await user.click(await screen.findByRole('option', { name: /^Tag value · env = dev/ }));
    const [filters] = onApply.mock.calls[0] as [FlatFilter[]];
    expect(filters.map(({ field, value, tagKey }) => ({ field, value, tagKey }))).toEqual([
      { field: 'cloud_provider', value: ['aws'], tagKey: undefined },
      { field: 'service_name', value: ['AmazonEC2'], tagKey: undefined },
      { field: 'tags', value: ['dev'], tagKey: 'env' },
    ]);
  });

  it('keeps the panel open with Apply’s alert when the pending rules cannot be applied', async () => {
    const { user, onApply } = setup();
    await optionsLoaded();
    await user.click(within(dialog()).getByRole('button', { name: 'New Rule' }));
    await user.type(search(), 'eu-west');
    await user.click(await screen.findByRole('option', { name: /^Region · eu-west-1/ }));
    expect(onApply).not.toHaveBeenCalled();
    expect(within(dialog()).getByRole('alert')).toHaveTextContent('Please select a Cloud Provider for all rules.');
    expect(within(rule(2)).getByRole('group', { name: /condition$/ })).toBeInTheDocument();
  });

  it('offers charge types only where the page has an Include, and hands the choice to it', async () => {
    const without = setup();
    await optionsLoaded();
    await without.user.type(search(), 'tax');
    expect(await screen.findByText('No matching values')).toBeInTheDocument();
    without.unmount();

    const { user, onApply, onIncludeChargeType } = setup({ charges: true });
    await optionsLoaded();
    await user.type(search(), 'tax');
    await user.click(await screen.findByRole('option', { name: /^Charge type · Tax/ }));
    expect(onIncludeChargeType).toHaveBeenCalledWith('Tax');
    expect(onApply).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
