import { DEFAULT_INCLUSIONS } from '@/lib/cost';
import { decodeFilters, encodeFilters, flatFiltersToRules, rulesToFlatFilters } from '@/lib/cost-filters';
import type { AnalysisState } from '../types';
import { DEFAULT_STATE, withDimensions } from './analysis-state';
import { decodeAnalysisSearch, encodeAnalysisSearch, foreignParams } from './url-state';
import { NOW, SAMPLE_RULES as rules, withoutIds } from '@/lib/cost-filters/url-codec.fixture';

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
