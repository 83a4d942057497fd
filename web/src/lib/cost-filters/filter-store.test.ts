import { createFilterStoreState, filterStoreReducer, type FilterAction, type FilterStoreState } from './filter-store';
import type { FilterPreset } from './presets';
import type { FlatFilter } from './types';

const NOW = new Date('2026-11-23T12:00:00.000Z');

function filter(id: string, field = `tag:${id}`, extra: Partial<FlatFilter> = {}): FlatFilter {
  return { id, field, operator: 'equals', value: ['x'], logic: 'and', level: 1, created: NOW.toISOString(), ...extra };
}

function withFilters(module: string, filters: FlatFilter[]): FilterStoreState {
  return createFilterStoreState(module, { filters });
}

describe('filter store', () => {
  it('starts idle with the module config', () => {
    const state = createFilterStoreState('budget');
    expect(state).toMatchObject({ module: 'budget', filters: [], status: 'idle', error: null, activePresetId: null });
    expect(state.config.maxFilters).toBe(5);
  });

  it('adds a filter and emits filter_added', () => {
    const { state, event } = filterStoreReducer(createFilterStoreState('cost_analysis'), { type: 'add', filter: filter('a') });
    expect(state.filters.map((f) => f.id)).toEqual(['a']);
    expect(event).toEqual({ name: 'filter_added', detail: { filter: filter('a') } });
  });

  it.each([
    ['cost_analysis', 10],
    ['budget', 5],
    ['tags', 3],
    ['integrations', 2],
    ['reports', 10],
  ])('refuses more than the %s limit of %i', (module, max) => {
    const full = withFilters(module, Array.from({ length: max }, (_, i) => filter(`f${i}`)));
    const { state, event } = filterStoreReducer(full, { type: 'add', filter: filter('extra') });
    expect(state.filters).toHaveLength(max);
    expect(state).toMatchObject({ status: 'error', error: `Maximum ${max} filters allowed` });
    expect(event).toBeUndefined();
  });

  it('shows the first validation error of an added filter', () => {
    const { state } = filterStoreReducer(createFilterStoreState('cost_analysis'), { type: 'add', filter: filter('a', '', { value: [] }) });
    expect(state.error).toBe('Filter field is required');
  });

  it('refuses logic a module does not support', () => {
    const { state } = filterStoreReducer(createFilterStoreState('integrations'), { type: 'add', filter: filter('a', 'region', { logic: 'or' }) });
    expect(state.error).toBe('Logic or not supported in integrations module');
    const logic = filterStoreReducer(createFilterStoreState('integrations'), { type: 'setLogic', logic: 'or' });
    expect(logic.state).toMatchObject({ status: 'error', error: 'Logic or not supported in integrations module', logic: 'and' });
    const fine = filterStoreReducer(createFilterStoreState('cost_analysis'), { type: 'setLogic', logic: 'or' });
    expect(fine.state.logic).toBe('or');
    expect(fine.event).toEqual({ name: 'logic_changed', detail: { logic: 'or' } });
  });

  it('ignores an empty filter', () => {
    const start = createFilterStoreState('cost_analysis');
    expect(filterStoreReducer(start, { type: 'add', filter: {} as FlatFilter }).state).toBe(start);
  });

  it('updates a filter, and says "Filter not found" for a missing one', () => {
    const start = withFilters('cost_analysis', [filter('a', 'region')]);
    const { state, event } = filterStoreReducer(start, { type: 'update', id: 'a', changes: { value: ['eu-west-1'] } });
    expect(state.filters[0].value).toEqual(['eu-west-1']);
    expect(event?.name).toBe('filter_updated');
    expect(filterStoreReducer(start, { type: 'update', id: 'zz', changes: {} }).state.error).toBe('Filter not found');
    expect(filterStoreReducer(start, { type: 'update', id: 'a', changes: { operator: 'between' } }).state.error).toBe(
      'Operator between is not supported for field region',
    );
  });

  it('removes and clears with their events', () => {
    const start = withFilters('cost_analysis', [filter('a'), filter('b')]);
    const removed = filterStoreReducer(start, { type: 'remove', id: 'a' });
    expect(removed.state.filters.map((f) => f.id)).toEqual(['b']);
    expect(removed.event).toEqual({ name: 'filter_removed', detail: { id: 'a' } });
    expect(filterStoreReducer(start, { type: 'remove', id: 'zz' }).state.error).toBe('Filter not found');
    const cleared = filterStoreReducer(start, { type: 'clear' });
    expect(cleared.state.filters).toEqual([]);
    expect(cleared.event?.name).toBe('filters_cleared');
  });

  it('loads filters: loading, then success; empty ones dropped; errors as messages', () => {
    const start = createFilterStoreState('tags');
    const loading = filterStoreReducer(start, { type: 'startLoading' }).state;
    expect(loading.status).toBe('loading');
    const loaded = filterStoreReducer(loading, { type: 'load', filters: [filter('a'), {}, [], ''] }).state;
    expect(loaded).toMatchObject({ status: 'success', filters: [filter('a')] });
    expect(filterStoreReducer(start, { type: 'load', filters: 'nope' }).state.error).toBe('Filters must be an array');
    expect(filterStoreReducer(start, { type: 'load', filters: [filter('a', 'region', { value: [] })] }).state.error).toBe(
      'Filter 1: Filter value is required',
    );
    expect(filterStoreReducer(start, { type: 'load', filters: [filter('a', 'region'), filter('b', 'region')] }).state.error).toBe(
      'Duplicate filters detected',
    );
    expect(filterStoreReducer(start, { type: 'load', filters: ['a', 'b', 'c', 'd'].map((id) => filter(id)) }).state.error).toBe(
      'Maximum 3 filters allowed',
    );
  });

  it('clears the error and the active preset on any change', () => {
    const failed: FilterStoreState = { ...withFilters('cost_analysis', [filter('a')]), status: 'error', error: 'Filter not found', activePresetId: 'p1' };
    const actions: FilterAction[] = [
      { type: 'add', filter: filter('b') },
      { type: 'update', id: 'a', changes: { value: ['y'] } },
      { type: 'remove', id: 'a' },
      { type: 'clear' },
      { type: 'load', filters: [filter('c')] },
    ];
    for (const action of actions) {
      const { state } = filterStoreReducer(failed, action);
      expect(state.error).toBeNull();
      expect(state.activePresetId).toBeNull();
      expect(state.status).not.toBe('error');
    }
    expect(filterStoreReducer(failed, { type: 'fail', error: 'Boom' }).state).toMatchObject({ status: 'error', error: 'Boom' });
  });

  it('refuses to save a preset without filters', () => {
    const { state } = filterStoreReducer(createFilterStoreState('cost_analysis'), { type: 'savePreset', preset: { id: 'p', name: 'Empty' } });
    expect(state).toMatchObject({ status: 'error', error: 'No filters to save', presets: [] });
  });

  it('saves a preset (added or replaced by id) and makes it active; deleting the active one clears it', () => {
    const start = withFilters('cost_analysis', [filter('a')]);
    const saved = filterStoreReducer(start, { type: 'savePreset', preset: { id: 'p1', name: 'EC2 only', description: 'd' }, now: NOW });
    const preset: FilterPreset = { id: 'p1', name: 'EC2 only', description: 'd', filters: [filter('a')], logic: 'and', module: 'cost_analysis', created: NOW.toISOString() };
    expect(saved.state).toMatchObject({ presets: [preset], activePresetId: 'p1' });
    expect(saved.event).toEqual({ name: 'preset_saved', detail: { preset } });

    const second = filterStoreReducer(saved.state, { type: 'savePreset', preset: { id: 'p2', name: 'Second' }, now: NOW }).state;
    const replaced = filterStoreReducer(second, { type: 'savePreset', preset: { id: 'p1', name: 'Renamed' }, now: NOW }).state;
    expect(replaced.presets.map((p) => [p.id, p.name])).toEqual([
      ['p1', 'Renamed'],
      ['p2', 'Second'],
    ]);
    expect(replaced.activePresetId).toBe('p1');

    const otherDeleted = filterStoreReducer(replaced, { type: 'deletePreset', id: 'p2' }).state;
    expect(otherDeleted.activePresetId).toBe('p1');
    const activeDeleted = filterStoreReducer(otherDeleted, { type: 'deletePreset', id: 'p1' }).state;
    expect(activeDeleted).toMatchObject({ presets: [], activePresetId: null });
  });

  it('loads a preset: its filters and logic, active, preset_loaded', () => {
    const preset: FilterPreset = { id: 'p', name: 'P', filters: [filter('z')], logic: 'or', module: 'cost_analysis', created: NOW.toISOString() };
    const start = createFilterStoreState('cost_analysis', { presets: [preset, { ...preset, id: 'q', module: 'budget' }] });
    expect(start.presets.map((p) => p.id)).toEqual(['p']);
    const { state, event } = filterStoreReducer(start, { type: 'loadPreset', id: 'p' });
    expect(state).toMatchObject({ filters: [filter('z')], logic: 'or', activePresetId: 'p', status: 'success' });
    expect(event).toEqual({ name: 'preset_loaded', detail: { preset } });
  });
});
