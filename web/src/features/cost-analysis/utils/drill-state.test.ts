import { drillUrl, encodeDrillPath, decodeDrillPath, DEFAULT_INCLUSIONS, type CostRow } from '@/lib/cost';
import { flatFiltersToRules, rulesToFlatFilters, type FilterRule } from '@/lib/cost-filters';
import type { AnalysisState } from '../types';
import { DEFAULT_STATE, withDimensions } from './analysis-state';
import { activeDrillPath, crumbLabel, drillInto, drillValueOfLabel, stepBack } from './drill-state';
import { decodeAnalysisSearch, encodeAnalysisSearch } from './url-state';

const NOW = new Date('2026-11-23T12:00:00Z');

function grouped(...dims: AnalysisState['grouping']['groupByDimensions']): AnalysisState {
  return { ...DEFAULT_STATE, grouping: withDimensions(DEFAULT_STATE.grouping, dims) };
}

function rulesOf(state: AnalysisState) {
  return flatFiltersToRules(state.filters).map(({ provider, conditions }) => ({
    provider,
    conditions: conditions.map(({ field, operator, value }) => `${field} ${operator} ${value.join('|')}`),
  }));
}

function row(fields: Partial<CostRow>): CostRow {
  return { amount: 1, grouping_values: [], grouping_path: '', ...fields };
}

describe('drill path', () => {
  it('round-trips through its compact form, escaping separators', () => {
    const steps = [
      { dimension: 'service' as const, value: 'AmazonEC2' },
      { dimension: 'usage_type' as const, value: 'BoxUsage:m5.large~x' },
    ];
    expect(encodeDrillPath(steps)).toBe('service:AmazonEC2~usage_type:BoxUsage%3Am5.large%7Ex');
    expect(decodeDrillPath(encodeDrillPath(steps))).toEqual(steps);
  });
});

describe('drilling into a value', () => {
  it('service → a condition for any provider, grouped by usage type; usage type → the last level keeps the grouping', () => {
    const first = drillInto(grouped('service', 'region'), 'service', 'AmazonEC2', NOW);
    expect(first.grouping.groupByDimensions).toEqual(['usage_type', 'region']);
    expect(rulesOf(first)).toEqual([{ provider: '', conditions: ['service equals AmazonEC2'] }]);
    expect(first.drill).toEqual([{ dimension: 'service', value: 'AmazonEC2' }]);

    const second = drillInto(first, 'usage_type', 'BoxUsage:m5.large', NOW);
    expect(second.grouping.groupByDimensions).toEqual(['usage_type', 'region']);
    expect(rulesOf(second)).toEqual([{ provider: '', conditions: ['service equals AmazonEC2', 'usage_type equals BoxUsage:m5.large'] }]);
    expect(activeDrillPath(second).map(crumbLabel)).toEqual(['Service: AmazonEC2', 'Usage type: BoxUsage:m5.large']);
  });

  it('joins every existing rule (ANDed within each)', () => {
    const rules: FilterRule[] = [
      { id: 'a', provider: 'aws', conditions: [{ id: 'c', field: 'region', operator: 'equals', value: ['us-east-1'] }] },
      { id: 'g', provider: 'gcp', conditions: [] },
    ];
    const state = { ...grouped('account'), filters: rulesToFlatFilters(rules, NOW) };
    const next = drillInto(state, 'account', '123456789012', NOW);
    expect(next.grouping.groupByDimensions).toEqual(['service']);
    expect(rulesOf(next)).toEqual([
      { provider: 'aws', conditions: ['region equals us-east-1', 'account equals 123456789012'] },
      { provider: 'gcp', conditions: ['account equals 123456789012'] },
    ]);
    expect(rulesOf(stepBack(next, 0, NOW))).toEqual(rulesOf(state));
  });

  it('cloud provider → a provider rule, grouped by account; back removes it', () => {
    const next = drillInto(grouped('cloud_provider'), 'cloud_provider', 'aws', NOW);
    expect(rulesOf(next)).toEqual([{ provider: 'aws', conditions: [] }]);
    expect(next.grouping.groupByDimensions).toEqual(['account']);
    expect(crumbLabel(next.drill![0])).toBe('Cloud provider: AWS');
    const back = stepBack(next, 0, NOW);
    expect(back.filters).toEqual([]);
    expect(back.grouping.groupByDimensions).toEqual(['cloud_provider']);
    expect(back.drill).toBeUndefined();
  });

  it('charge type → Include that type only, grouped by service; back restores the default Include', () => {
    const next = drillInto(grouped('cost_type'), 'cost_type', 'Tax', NOW);
    expect(Object.entries(next.inclusions).filter(([, on]) => on)).toEqual([['Tax', true]]);
    expect(next.grouping.groupByDimensions).toEqual(['service']);
    expect(activeDrillPath(next)).toHaveLength(1);
    const back = stepBack(next, 0, NOW);
    expect(back.inclusions).toEqual(DEFAULT_INCLUSIONS);
    expect(back.grouping.groupByDimensions).toEqual(['cost_type']);
  });
});

describe('stepping back', () => {
  const deep = drillInto(
    drillInto(drillInto(grouped('cloud_provider'), 'cloud_provider', 'aws', NOW), 'account', '111', NOW),
    'service',
    'AmazonEC2',
    NOW,
  );

  it('to a crumb: removes the conditions added after it and restores the grouping it had', () => {
    expect(rulesOf(deep)).toEqual([{ provider: 'aws', conditions: ['account equals 111', 'service equals AmazonEC2'] }]);
    expect(deep.grouping.groupByDimensions).toEqual(['usage_type']);
    const toAccount = stepBack(deep, 2, NOW);
    expect(rulesOf(toAccount)).toEqual([{ provider: 'aws', conditions: ['account equals 111'] }]);
    expect(toAccount.grouping.groupByDimensions).toEqual(['service']);
    expect(toAccount.drill).toEqual(deep.drill!.slice(0, 2));
    const toProvider = stepBack(deep, 1, NOW);
    expect(rulesOf(toProvider)).toEqual([{ provider: 'aws', conditions: [] }]);
    expect(toProvider.grouping.groupByDimensions).toEqual(['account']);
    const all = stepBack(deep, 0, NOW);
    expect(all.filters).toEqual([]);
    expect(all.grouping.groupByDimensions).toEqual(['cloud_provider']);
  });

  it('survives the URL: the drilled state read from its link steps back the same way', () => {
    const back = decodeAnalysisSearch(encodeAnalysisSearch(deep), DEFAULT_STATE, NOW)!;
    expect(activeDrillPath(back)).toEqual(deep.drill);
    expect(rulesOf(stepBack(back, 2, NOW))).toEqual(rulesOf(stepBack(deep, 2, NOW)));
  });

  it('drops crumbs whose conditions were edited away, keeping the conditions', () => {
    const edited: AnalysisState = {
      ...deep,
      filters: rulesToFlatFilters([{ id: 'r', provider: 'aws', conditions: [{ id: 'c', field: 'service', operator: 'equals', value: ['AmazonEC2'] }] }], NOW),
    };
    expect(activeDrillPath(edited).map(crumbLabel)).toEqual(['Cloud provider: AWS', 'Service: AmazonEC2']);
  });
});

describe('the value behind a label', () => {
  const rows = [row({ account: '111', account_name: 'Prod' }), row({ cloud_provider: 'aws' })];
  it('an account by its id, a provider by its code, Unknown by nothing', () => {
    expect(drillValueOfLabel('Prod (111)', 'account', rows)).toBe('111');
    expect(drillValueOfLabel('Other (222)', 'account', rows)).toBe('222');
    expect(drillValueOfLabel('AWS', 'cloud_provider', rows)).toBe('aws');
    expect(drillValueOfLabel('AmazonEC2', 'service', rows)).toBe('AmazonEC2');
    expect(drillValueOfLabel('Unknown', 'service', rows)).toBeNull();
  });
});

describe('drillUrl', () => {
  it('links to Advanced Cost as a click there would leave it', () => {
    expect(drillUrl('service', 'AmazonEC2')).toBe('/cost/advanced?group=usage_type&filters=*(service=AmazonEC2)&drill=service:AmazonEC2');
    expect(drillUrl('account', 'a~b', { period: 'custom', from: '2026-10-01', to: '2026-10-31', include: ['Usage'] })).toBe(
      '/cost/advanced?period=custom&from=2026-10-01&to=2026-10-31&group=service&include=Usage&filters=*(account=a%7Eb)&drill=account:a%7Eb',
    );
    expect(drillUrl('cost_type', 'Tax', { period: 'lastMonth', include: DEFAULT_INCLUSIONS })).toBe(
      '/cost/advanced?period=lastMonth&group=service&include=Tax&drill=cost_type:Tax',
    );
    expect(drillUrl('cloud_provider', 'aws')).toBe('/cost/advanced?group=account&filters=aws&drill=cloud_provider:aws');
  });

  it('opens as the drilled state, one crumb deep', () => {
    const link = drillUrl('usage_type', 'BoxUsage:m5.large', { period: 'lastMonth' });
    const state = decodeAnalysisSearch(link.slice(link.indexOf('?')), DEFAULT_STATE, NOW)!;
    expect(state.period.preset).toBe('lastMonth');
    expect(state.grouping.groupByDimensions).toEqual(['usage_type']);
    expect(rulesOf(state)).toEqual([{ provider: '', conditions: ['usage_type equals BoxUsage:m5.large'] }]);
    expect(activeDrillPath(state).map(crumbLabel)).toEqual(['Usage type: BoxUsage:m5.large']);
  });
});
