/** Rules that exercise every part of the compact `filters` form (shared by the URL tests). */
import type { FilterRule } from './types';

export const NOW = new Date('2026-11-23T12:00:00Z');

export const SAMPLE_RULES: FilterRule[] = [
  {
    id: 'r1',
    provider: 'aws',
    conditions: [
      { id: 'c1', field: 'service', operator: 'equals', value: ['AmazonEC2', 'AmazonS3'] },
      { id: 'c2', field: 'region', operator: 'not_equals', value: ['us-east-1'] },
      { id: 'c3', field: 'tag', operator: 'equals', value: ['prod'], tagKey: 'env', tagValueOperator: 'equals' },
      { id: 'c4', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'equals' },
    ],
  },
  {
    id: 'r2',
    provider: 'gcp',
    conditions: [
      { id: 'c5', field: 'account', operator: 'equals', value: ['my (odd) project~1, "x"|y=z;!'] },
      { id: 'c6', field: 'tag', operator: 'equals', value: ['a b'], tagKey: 'cost:center', tagValueOperator: 'not_equals' },
    ],
  },
  { id: 'r3', provider: 'azure', conditions: [] },
];

export function withoutIds(list: FilterRule[]) {
  return list.map(({ provider, conditions }) => ({ provider, conditions: conditions.map(({ id: _id, ...rest }) => rest) }));
}
