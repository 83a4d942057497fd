import { DEFAULT_INCLUSIONS, resolveTimeRange } from '@/lib/cost';
import type { FlatFilter } from '@/lib/cost-filters';
import type { AnalysisState } from '../types';
import { DEFAULT_STATE, withDimensions } from './analysis-state';
import { apiBucketCount, buildAnalysisRequests, seriesGroupLimit } from './build-request';

const NOW = new Date('2026-11-23T15:00:00Z');

const ec2Filters: FlatFilter[] = [
  { id: 'r1', field: 'cloud_provider', operator: 'equals', value: ['aws'], logic: 'and', level: 0, created: NOW.toISOString() },
  { id: 'c1', field: 'service_name', operator: 'equals', value: ['AmazonEC2'], logic: 'and', level: 1, created: NOW.toISOString() },
];

function state(overrides: Partial<AnalysisState> = {}): AnalysisState {
  return { ...DEFAULT_STATE, ...overrides };
}

describe('buildAnalysisRequests', () => {
  it('asks for this month daily, ungrouped, usage only, by default (§9)', () => {
    const range = resolveTimeRange('thisMonth', undefined, NOW);
    const { series, table, warnings } = buildAnalysisRequests(state(), range);
    expect(series).toEqual({
      start_time: '2026-11-01T00:00:00.000Z',
      end_time: '2026-11-23T23:59:59.999Z',
      filters: [],
      group_by: 'none',
      group_by_dimensions: [],
      group_by_hierarchy: true,
      interval: 'daily',
      view_type: 'daily',
      include_forecast: false,
      cost_type: { inclusions: ['Usage', 'regular'] },
      order_by: 'amount',
      order_desc: true,
      limit: Math.floor(10_000 / 23),
      offset: 0,
    });
    expect(table).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('groups the chart by the primary dimension and the table by all of them, with the filters as API groups', () => {
    const range = resolveTimeRange('lastMonth', undefined, NOW);
    const grouped = state({
      viewType: 'monthly',
      grouping: withDimensions(DEFAULT_STATE.grouping, ['service', 'region']),
      filters: ec2Filters,
    });
    const { series, table } = buildAnalysisRequests(grouped, range);
    const filters = [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['aws'] }], services: [{ operator: 'equals', values: ['AmazonEC2'] }] }];
    expect(series).toMatchObject({
      start_time: '2026-10-01T00:00:00.000Z',
      end_time: '2026-10-31T23:59:59.999Z',
      group_by: 'service',
      group_by_dimensions: ['service'],
      interval: 'monthly',
      view_type: 'monthly',
      limit: 10_000,
      filters,
    });
    expect(table).toMatchObject({
      group_by: 'service',
      group_by_dimensions: ['service', 'region'],
      group_by_hierarchy: true,
      limit: 1000,
      offset: 0,
      filters,
    });
    expect(table).not.toHaveProperty('interval');
    expect(table).not.toHaveProperty('view_type');
  });

  it('asks daily for the Weekly view and daily running totals for Cumulative (§9 interval rule)', () => {
    const range = resolveTimeRange('last30Days', undefined, NOW);
    expect(buildAnalysisRequests(state({ viewType: 'weekly' }), range).series).toMatchObject({ interval: 'daily', view_type: 'weekly' });
    expect(buildAnalysisRequests(state({ viewType: 'cumulative' }), range).series).toMatchObject({
      interval: 'daily',
      view_type: 'cumulative',
    });
  });

  it('sends no cost_type when every charge type is included or none is chosen', () => {
    const range = resolveTimeRange('today', undefined, NOW);
    const none = Object.fromEntries(Object.keys(DEFAULT_INCLUSIONS).map((k) => [k, false]));
    const all = Object.fromEntries(Object.keys(DEFAULT_INCLUSIONS).map((k) => [k, true]));
    expect(buildAnalysisRequests(state({ inclusions: none }), range).series.cost_type).toBeUndefined();
    expect(buildAnalysisRequests(state({ inclusions: all }), range).series.cost_type).toBeUndefined();
    expect(buildAnalysisRequests(state({ inclusions: { ...none, Usage: true, Tax: true } }), range).series.cost_type).toEqual({
      inclusions: ['Usage', 'Tax'],
    });
  });

  it('keeps groups × periods within the 10000-item chart cap', () => {
    const lastYear = resolveTimeRange('lastYear', undefined, NOW);
    expect(apiBucketCount(lastYear, 'daily')).toBe(365);
    expect(apiBucketCount(lastYear, 'monthly')).toBe(12);
    expect(seriesGroupLimit(lastYear, 'daily')).toBe(27);
    expect(seriesGroupLimit(lastYear, 'monthly')).toBe(833);
    const long = resolveTimeRange('custom', { startDate: '1990-01-01', endDate: '2026-11-23' }, NOW);
    expect(seriesGroupLimit(long, 'daily')).toBe(1);
  });
});
