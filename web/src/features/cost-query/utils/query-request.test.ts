import type { FlatFilter } from '@/lib/cost-filters';
import { costQueryBody, toQueryFilter } from './query-request';

const f = (field: string, operator: string, value: string[], tagKey?: string): FlatFilter => ({
  id: `${field}-${operator}`,
  field,
  operator,
  value,
  logic: 'and',
  level: 1,
  ...(tagKey ? { tagKey } : {}),
  created: '2026-11-26T00:00:00.000Z',
});

describe('the POST /v1/query body', () => {
  it('sends one value for single-value operators, lists for in / not in, numbers for amounts', () => {
    expect(toQueryFilter(f('service_name', 'contains', ['EC2']))).toEqual({ field: 'service_name', operator: 'contains', value: 'EC2' });
    expect(toQueryFilter(f('region', 'not_in', ['a', 'b']))).toEqual({ field: 'region', operator: 'not_in', value: ['a', 'b'] });
    expect(toQueryFilter(f('tags', 'equals', ['web'], 'team'))).toEqual({ field: 'tags', operator: 'equals', value: 'web', tagKey: 'team' });
    expect(toQueryFilter(f('cost_amount', 'greater_than', ['100.5']))).toEqual({ field: 'cost_amount', operator: 'greater_than', value: 100.5 });
    expect(toQueryFilter(f('cost_amount', 'between', ['10', '250']))).toEqual({ field: 'cost_amount', operator: 'between', value: [10, 250] });
    // Not a number (e.g. an edited preset): sent as typed, so the server's message names it.
    expect(toQueryFilter(f('cost_amount', 'less_than', ['ten']))).toEqual({ field: 'cost_amount', operator: 'less_than', value: 'ten' });
  });

  it('carries the logic, the period and the one grouping', () => {
    const range = { start: '2026-11-01T00:00:00.000Z', end: '2026-11-26T23:59:59.999Z' };
    expect(costQueryBody([f('service_name', 'equals', ['AmazonEC2'])], 'or', range, 'account')).toEqual({
      filters: [{ field: 'service_name', operator: 'equals', value: 'AmazonEC2' }],
      logic: 'or',
      start_time: range.start,
      end_time: range.end,
      group_by: 'account',
    });
    expect(costQueryBody([], 'and', range, 'service').filters).toEqual([]);
  });
});
