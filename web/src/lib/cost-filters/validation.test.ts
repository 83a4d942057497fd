import { getModuleConfig, MODULE_CONFIGS } from './module-config';
import type { FlatFilter } from './types';
import { dropEmptyFilters, isEmptyFilter, validateFilter, validateFilterList } from './validation';

const ok: FlatFilter = { id: 'f1', field: 'service_name', operator: 'equals', value: ['AmazonEC2'], logic: 'and', level: 1, created: '2026-11-23T00:00:00.000Z' };

describe('module configuration', () => {
  it('has the limits of each module', () => {
    expect(MODULE_CONFIGS.cost_analysis).toEqual({ maxFilters: 10, supportedLogic: ['and', 'or'], persistence: true, savedFilters: true });
    expect(MODULE_CONFIGS.budget.maxFilters).toBe(5);
    expect(MODULE_CONFIGS.tags.maxFilters).toBe(3);
    expect(MODULE_CONFIGS.integrations).toMatchObject({ maxFilters: 2, supportedLogic: ['and'] });
  });

  it('gives at most 10 filters to a module without a configuration', () => {
    expect(getModuleConfig('mission_control').maxFilters).toBe(10);
    expect(getModuleConfig('toString').maxFilters).toBe(10);
  });
});

describe('validateFilter', () => {
  it('accepts a complete filter', () => {
    expect(validateFilter(ok)).toBeNull();
  });

  it.each([
    [{ id: '' }, 'Filter ID is required'],
    [{ field: '' }, 'Filter field is required'],
    [{ operator: ' ' }, 'Filter operator is required'],
    [{ value: [] }, 'Filter value is required'],
    [{ value: [' '] }, 'Filter value is required'],
    [{ operator: 'greater_than' }, 'Operator greater_than is not supported for field service_name'],
    [{ field: 'cost_amount', operator: 'contains', value: ['3'] }, 'Operator contains is not supported for field cost_amount'],
    [{ field: 'date_range', operator: 'equals', value: ['2026-11-01'] }, 'Operator equals is not supported for field date_range'],
  ])('rejects %o with "%s"', (change, message) => {
    expect(validateFilter({ ...ok, ...change })).toBe(message);
  });

  it('needs no value for is_empty and for a tag filter with a key', () => {
    expect(validateFilter({ ...ok, operator: 'is_empty', value: [] })).toBeNull();
    expect(validateFilter({ ...ok, field: 'tags', tagKey: 'env', value: [] })).toBeNull();
    expect(validateFilter({ ...ok, field: 'tag:env', value: [] })).toBeNull();
    expect(validateFilter({ ...ok, field: 'tags', value: [] })).toBe('Filter value is required');
  });

  it('accepts the numeric and date operators of their fields', () => {
    expect(validateFilter({ ...ok, field: 'cost_amount', operator: 'greater_than_or_equal', value: ['100'] })).toBeNull();
    expect(validateFilter({ ...ok, field: 'date_range', operator: 'date_after', value: ['2026-11-01'] })).toBeNull();
  });
});

describe('validateFilterList', () => {
  it('needs an array', () => {
    expect(validateFilterList({ field: 'region' })).toEqual(['Filters must be an array']);
  });

  it('numbers each bad filter from 1', () => {
    expect(validateFilterList([ok, { ...ok, id: 'f2', field: 'region', value: [] }])).toEqual(['Filter 2: Filter value is required']);
  });

  it('detects duplicates (same field and operator)', () => {
    expect(validateFilterList([ok, { ...ok, id: 'f2', value: ['AmazonS3'] }])).toEqual(['Duplicate filters detected']);
    expect(validateFilterList([ok, { ...ok, id: 'f2', operator: 'not_equals' }])).toEqual([]);
    const tag = { ...ok, field: 'tags', tagKey: 'env' };
    expect(validateFilterList([tag, { ...tag, id: 'f2', tagKey: 'team' }])).toEqual([]);
  });

  it('applies the module limit', () => {
    const four = ['a', 'b', 'c', 'd'].map((id) => ({ ...ok, id, operator: id === 'a' ? 'equals' : 'not_equals', field: id === 'a' ? 'region' : `tag:${id}` }));
    expect(validateFilterList(four, getModuleConfig('tags'))).toEqual(['Maximum 3 filters allowed']);
    expect(validateFilterList(four, getModuleConfig('budget'))).toEqual([]);
  });
});

describe('empty filters', () => {
  it('drops empty arrays, blank strings and empty objects', () => {
    expect(isEmptyFilter([])).toBe(true);
    expect(isEmptyFilter('  ')).toBe(true);
    expect(isEmptyFilter({})).toBe(true);
    expect(isEmptyFilter(ok)).toBe(false);
    expect(dropEmptyFilters<unknown>([ok, [], '', {}, null])).toEqual([ok]);
  });
});
