import { buildApiFilterGroups } from './api-groups';
import { rulesToFlatFilters } from './rules';
import type { FlatFilter } from './types';

function flat(partial: Partial<FlatFilter> & Pick<FlatFilter, 'id' | 'field'>): FlatFilter {
  return { operator: 'equals', value: [], logic: 'and', level: 1, created: '2026-11-23T00:00:00.000Z', ...partial };
}

describe('buildApiFilterGroups', () => {
  it('makes one group per rule: AND for the first, OR for the rest', () => {
    const filters = rulesToFlatFilters([
      {
        id: 'r1',
        provider: 'aws',
        conditions: [
          { id: 'a', field: 'service', operator: 'equals', value: ['AmazonEC2'] },
          { id: 'b', field: 'account', operator: 'not_equals', value: ['111111111111', '222222222222'] },
        ],
      },
      {
        id: 'r2',
        provider: 'gcp',
        conditions: [
          { id: 'c', field: 'region', operator: 'equals', value: ['us-central1'] },
          { id: 'd', field: 'tag', operator: 'equals', value: ['prod'], tagKey: 'env', tagValueOperator: 'not_equals' },
          { id: 'e', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'equals' },
        ],
      },
    ]);
    expect(buildApiFilterGroups(filters)).toEqual({
      groups: [
        {
          operator: 'AND',
          cloud_providers: [{ operator: 'equals', values: ['aws'] }],
          services: [{ operator: 'equals', values: ['AmazonEC2'] }],
          accounts: [{ operator: 'not_equals', values: ['111111111111', '222222222222'] }],
        },
        {
          operator: 'OR',
          cloud_providers: [{ operator: 'equals', values: ['gcp'] }],
          regions: [{ operator: 'equals', values: ['us-central1'] }],
          tags: [{ key: 'env', value: { operator: 'not_equals', values: ['prod'] } }, { key: 'team' }],
        },
      ],
      warnings: [],
    });
  });

  it('gives no groups for no filters', () => {
    expect(buildApiFilterGroups([])).toEqual({ groups: [], warnings: [] });
  });

  it('skips a filter with an empty field', () => {
    const { groups } = buildApiFilterGroups([flat({ id: '1', field: '  ', value: ['x'] }), flat({ id: '2', field: 'region', value: ['eu-west-1'] })]);
    expect(groups).toEqual([{ operator: 'AND', regions: [{ operator: 'equals', values: ['eu-west-1'] }] }]);
  });

  it('skips a filter whose operator is empty or not a string', () => {
    const { groups } = buildApiFilterGroups([
      flat({ id: '1', field: 'region', operator: '', value: ['eu-west-1'] }),
      flat({ id: '2', field: 'region', operator: 7 as unknown as string, value: ['eu-west-2'] }),
      flat({ id: '3', field: 'tags', operator: '', tagKey: 'env' }),
      flat({ id: '4', field: 'service_name', value: ['AmazonS3'] }),
    ]);
    expect(groups).toEqual([{ operator: 'AND', services: [{ operator: 'equals', values: ['AmazonS3'] }] }]);
  });

  it('skips an empty, null or empty-list value, except for tags', () => {
    const { groups } = buildApiFilterGroups([
      flat({ id: '1', field: 'region', value: [] }),
      flat({ id: '2', field: 'region', value: null as unknown as string[] }),
      flat({ id: '3', field: 'service_name', value: [''] }),
      flat({ id: '4', field: 'tags', tagKey: 'owner', value: [] }),
    ]);
    expect(groups).toEqual([{ operator: 'AND', tags: [{ key: 'owner' }] }]);
  });

  it('skips a tag filter without a tag key', () => {
    const { groups, warnings } = buildApiFilterGroups([flat({ id: '1', field: 'tags', value: ['prod'] }), flat({ id: '2', field: 'tags', tagKey: ' ', value: ['x'] })]);
    expect(groups).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('reads a field "tag:{key}" as a tag key', () => {
    const { groups } = buildApiFilterGroups([flat({ id: '1', field: 'tag:cost-center', operator: 'not_equals', value: ['42'] })]);
    expect(groups).toEqual([{ operator: 'AND', tags: [{ key: 'cost-center', value: { operator: 'not_equals', values: ['42'] } }] }]);
  });

  it('ignores unknown fields with a warning', () => {
    const { groups, warnings } = buildApiFilterGroups([
      flat({ id: '1', field: 'cloud_provider', value: ['aws'], level: 0 }),
      flat({ id: '2', field: 'cost_amount', operator: 'greater_than', value: ['10'] }),
      flat({ id: '3', field: 'colour', value: ['blue'] }),
    ]);
    expect(groups).toEqual([{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['aws'] }] }]);
    expect(warnings).toEqual(['Filter 2: ignored unknown field cost_amount', 'Filter 3: ignored unknown field colour']);
  });

  it('drops a group left without conditions and renumbers the operators', () => {
    const { groups } = buildApiFilterGroups([
      flat({ id: '1', field: 'region', value: [] }),
      flat({ id: '2', field: 'cloud_provider', value: ['gcp'], logic: 'or', level: 0 }),
      flat({ id: '3', field: 'cloud_provider', value: ['azure'], logic: 'or', level: 0 }),
    ]);
    expect(groups.map((g) => [g.operator, g.cloud_providers?.[0].values])).toEqual([
      ['AND', ['gcp']],
      ['OR', ['azure']],
    ]);
  });

  it('passes cost and usage types, and several conditions of one field', () => {
    const { groups } = buildApiFilterGroups([
      flat({ id: '1', field: 'cost_type', value: ['Usage'] }),
      flat({ id: '2', field: 'usage_type', operator: 'not_in', value: ['BoxUsage'] }),
      flat({ id: '3', field: 'cost_type', operator: 'not_equals', value: ['Tax'] }),
    ]);
    expect(groups).toEqual([
      {
        operator: 'AND',
        cost_types: [
          { operator: 'equals', values: ['Usage'] },
          { operator: 'not_equals', values: ['Tax'] },
        ],
        usage_types: [{ operator: 'not_in', values: ['BoxUsage'] }],
      },
    ]);
  });

  it('sends "is missing" and "is present" of a tag as is_empty / is_not_empty without values', () => {
    const filters = rulesToFlatFilters([
      {
        id: 'r',
        provider: 'aws',
        conditions: [
          // Values left over from an earlier operator are not sent.
          { id: 'a', field: 'tag', operator: 'equals', value: ['web'], tagKey: 'team', tagValueOperator: 'is_empty' },
          { id: 'b', field: 'tag', operator: 'equals', value: [], tagKey: 'env', tagValueOperator: 'is_not_empty' },
        ],
      },
    ]);
    expect(buildApiFilterGroups(filters).groups).toEqual([
      {
        operator: 'AND',
        cloud_providers: [{ operator: 'equals', values: ['aws'] }],
        tags: [
          { key: 'team', value: { operator: 'is_empty' } },
          { key: 'env', value: { operator: 'is_not_empty' } },
        ],
      },
    ]);
  });
});
