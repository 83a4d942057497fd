import { DEFAULT_INCLUSIONS } from '@/lib/cost';
import { flatFiltersToRules, rulesToFlatFilters, type FilterRule } from '@/lib/cost-filters';
import type { AnalysisState } from '../types';
import { DEFAULT_STATE, withDimensions } from './analysis-state';
import { decodeAnalysisSearch, decodeFilters, encodeAnalysisSearch, encodeFilters, foreignParams } from './url-state';

const NOW = new Date('2026-11-23T12:00:00Z');

const rules: FilterRule[] = [
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

function withoutIds(list: FilterRule[]) {
  return list.map(({ provider, conditions }) => ({ provider, conditions: conditions.map(({ id: _id, ...rest }) => rest) }));
}

describe('compact filters in the URL', () => {
  it('writes readable rules', () => {
    expect(encodeFilters(rulesToFlatFilters(rules, NOW))).toBe(
      'aws(service=AmazonEC2|AmazonS3;region!=us-east-1;tag:env=prod;tag:team)~' +
        'gcp(account=my%20%28odd%29%20project%7E1%2C%20%22x%22%7Cy%3Dz%3B%21;tag:cost%3Acenter!=a%20b)~azure',
    );
  });

  it('reads back the same rules (round trip)', () => {
    const flat = rulesToFlatFilters(rules, NOW);
    const back = decodeFilters(encodeFilters(flat), NOW);
    expect(withoutIds(flatFiltersToRules(back))).toEqual(withoutIds(flatFiltersToRules(flat)));
    expect(encodeFilters(back)).toBe(encodeFilters(flat));
  });

  it('leaves out what it cannot read', () => {
    const back = decodeFilters('aws(colour=red;service=AmazonEC2;region=)~(~', NOW);
    expect(withoutIds(flatFiltersToRules(back))).toEqual([
      { provider: 'aws', conditions: [{ field: 'service', operator: 'equals', value: ['AmazonEC2'] }] },
    ]);
  });

  it('keeps any provider by name, encoded', () => {
    const flat = rulesToFlatFilters(
      [
        { id: 'o', provider: 'Oracle', conditions: [{ id: 'c', field: 'service', operator: 'equals', value: ['Block Storage'] }] },
        { id: 'm', provider: 'MongoDB (Atlas)', conditions: [] },
      ],
      NOW,
    );
    const text = encodeFilters(flat);
    expect(text).toBe('Oracle(service=Block%20Storage)~MongoDB%20%28Atlas%29');
    expect(withoutIds(flatFiltersToRules(decodeFilters(text, NOW)))).toEqual([
      { provider: 'Oracle', conditions: [{ field: 'service', operator: 'equals', value: ['Block Storage'] }] },
      { provider: 'MongoDB (Atlas)', conditions: [] },
    ]);
    // A cloud's code in any case is the code.
    expect(withoutIds(flatFiltersToRules(decodeFilters('AWS', NOW)))).toEqual([{ provider: 'aws', conditions: [] }]);
  });
});

describe('the state in the query string', () => {
  const state: AnalysisState = {
    period: { preset: 'lastMonth' },
    viewType: 'monthly',
    grouping: withDimensions(DEFAULT_STATE.grouping, ['service', 'region']),
    inclusions: { ...DEFAULT_INCLUSIONS, Tax: true },
    filters: rulesToFlatFilters(rules.slice(0, 1), NOW),
  };

  it('is readable', () => {
    expect(encodeAnalysisSearch(state)).toBe(
      '?period=lastMonth&view=monthly&group=service,region&include=Usage,regular,Tax' +
        '&filters=aws(service=AmazonEC2|AmazonS3;region!=us-east-1;tag:env=prod;tag:team)',
    );
    expect(encodeAnalysisSearch({ ...DEFAULT_STATE, period: { preset: 'custom', startDate: '2026-10-05', endDate: '2026-10-20' } })).toBe(
      '?period=custom&from=2026-10-05&to=2026-10-20&view=daily&include=Usage,regular',
    );
  });

  it('round-trips', () => {
    const back = decodeAnalysisSearch(encodeAnalysisSearch(state), DEFAULT_STATE, NOW)!;
    expect(back.period).toEqual(state.period);
    expect(back.viewType).toBe('monthly');
    expect(back.grouping).toEqual(state.grouping);
    expect(back.inclusions).toEqual(state.inclusions);
    expect(encodeFilters(back.filters)).toBe(encodeFilters(state.filters));
    const custom = { ...DEFAULT_STATE, period: { preset: 'custom' as const, startDate: '2026-10-05', endDate: '2026-10-20' } };
    expect(decodeAnalysisSearch(encodeAnalysisSearch(custom), DEFAULT_STATE, NOW)).toEqual(custom);
  });

  it('is a complete state: what a link leaves out takes the default', () => {
    expect(decodeAnalysisSearch('?view=weekly', DEFAULT_STATE, NOW)).toEqual({ ...DEFAULT_STATE, viewType: 'weekly' });
    expect(decodeAnalysisSearch('?tab=1', DEFAULT_STATE, NOW)).toBeNull();
    expect(decodeAnalysisSearch('', DEFAULT_STATE, NOW)).toBeNull();
  });

  it('reads unknown values as the defaults and keeps at most 4 known groups', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const back = decodeAnalysisSearch('?period=fortnight&view=hourly&group=colour,service,service,region,account,cost_type,usage_type', DEFAULT_STATE, NOW)!;
    expect(back.period).toEqual({ preset: 'thisMonth' });
    expect(back.viewType).toBe('daily');
    expect(back.grouping.groupByDimensions).toEqual(['service', 'region', 'account', 'cost_type']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('fortnight'));
  });

  it('keeps other parameters when it rewrites the query string', () => {
    expect(foreignParams('?period=today&tab=basic&report=x')).toEqual([['tab', 'basic']]);
    expect(encodeAnalysisSearch(DEFAULT_STATE, [['tab', 'basic']])).toBe('?period=thisMonth&view=daily&include=Usage,regular&tab=basic');
  });
});

describe('the drill path in the URL (docs/ANALYST-FLOW.md "Drill-down")', () => {
  const drilled: AnalysisState = {
    ...DEFAULT_STATE,
    grouping: withDimensions(DEFAULT_STATE.grouping, ['usage_type']),
    filters: decodeFilters('*(service=AmazonEC2;usage_type=BoxUsage%3Am5.large)', NOW),
    drill: [
      { dimension: 'service', value: 'AmazonEC2' },
      { dimension: 'usage_type', value: 'BoxUsage:m5.large' },
    ],
  };

  it('writes the steps escaped as the filters are, with the conditions for any provider as *(…)', () => {
    expect(encodeAnalysisSearch(drilled)).toBe(
      '?period=thisMonth&view=daily&group=usage_type&include=Usage,regular' +
        '&filters=*(service=AmazonEC2;usage_type=BoxUsage%3Am5.large)&drill=service:AmazonEC2~usage_type:BoxUsage%3Am5.large',
    );
  });

  it('reads back the same state (round trip), the conditions for any provider included', () => {
    const back = decodeAnalysisSearch(encodeAnalysisSearch(drilled), DEFAULT_STATE, NOW)!;
    expect(back.drill).toEqual(drilled.drill);
    expect(back.grouping.groupByDimensions).toEqual(['usage_type']);
    expect(withoutIds(flatFiltersToRules(back.filters))).toEqual([
      {
        provider: '',
        conditions: [
          { field: 'service', operator: 'equals', value: ['AmazonEC2'] },
          { field: 'usage_type', operator: 'equals', value: ['BoxUsage:m5.large'] },
        ],
      },
    ]);
    expect(encodeAnalysisSearch(back)).toBe(encodeAnalysisSearch(drilled));
  });

  it('keeps a rule for any provider beside a provider rule, ORed', () => {
    const back = decodeFilters('aws(region=us-east-1)~*(service=AmazonS3)', NOW);
    expect(back.map((f) => [f.field, f.logic])).toEqual([
      ['cloud_provider', 'and'],
      ['region', 'and'],
      ['service_name', 'or'],
    ]);
    expect(encodeFilters(back)).toBe('aws(region=us-east-1)~*(service=AmazonS3)');
    expect(decodeFilters('*~*()', NOW)).toEqual([]);
  });

  it('leaves out steps it cannot read, and steps whose conditions were edited away', () => {
    const back = decodeAnalysisSearch('?group=usage_type&filters=*(service=AmazonEC2)&drill=colour:red~service:AmazonEC2~region:', DEFAULT_STATE, NOW)!;
    expect(back.drill).toEqual([{ dimension: 'service', value: 'AmazonEC2' }]);
    // The service condition edited by hand: the crumb goes, the condition the user wrote stays.
    const edited = decodeAnalysisSearch('?group=usage_type&filters=aws(service=AmazonS3)&drill=service:AmazonEC2', DEFAULT_STATE, NOW)!;
    expect(encodeAnalysisSearch(edited)).toBe('?period=thisMonth&view=daily&group=usage_type&include=Usage,regular&filters=aws(service=AmazonS3)');
  });

  it('is a parameter of the screen, not a foreign one', () => {
    expect(foreignParams('?drill=service:AmazonEC2&utm=x')).toEqual([['utm', 'x']]);
  });
});
