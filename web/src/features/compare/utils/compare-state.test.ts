import { DEFAULT_INCLUSIONS } from '@/lib/cost';
import type { CompareState } from '../types';
import { DEFAULT_COMPARE_STATE, decodeCompareSearch, encodeCompareSearch } from './compare-state';

const NOW = new Date('2026-11-26T12:00:00.000Z');

describe('Compare URL state', () => {
  it('is the default state without any of its parameters', () => {
    expect(decodeCompareSearch('', NOW)).toEqual(DEFAULT_COMPARE_STATE);
    expect(decodeCompareSearch('?utm=x', NOW)).toEqual(DEFAULT_COMPARE_STATE);
    expect(encodeCompareSearch(DEFAULT_COMPARE_STATE)).toBe('?period=thisMonth&compare=previous&group=service&include=Usage,regular&sort=change&dir=desc');
  });

  it('round-trips a full state: custom ranges, group, charge types, filters with awkward values, sort', () => {
    const state: CompareState = {
      period: { preset: 'custom', startDate: '2026-10-01', endDate: '2026-10-15' },
      compareWith: { mode: 'custom', startDate: '2025-10-01', endDate: '2025-10-15' },
      groupBy: 'usage_type',
      inclusions: { ...DEFAULT_INCLUSIONS, Usage: false, regular: false, Tax: true },
      filters: decodeCompareSearch('?filters=aws(service=Amazon%20EC2%7E(x)|AmazonS3;region!=eu-west-1)', NOW).filters,
      sort: { key: 'percent', direction: 'asc' },
    };
    expect(state.filters.length).toBeGreaterThan(0);
    const search = encodeCompareSearch(state);
    expect(search).toContain('from=2026-10-01&to=2026-10-15&compare=custom&pfrom=2025-10-01&pto=2025-10-15&group=usage_type&include=Tax');
    const back = decodeCompareSearch(search, NOW);
    expect({ ...back, filters: back.filters.map(({ field, operator, value }) => ({ field, operator, value })) }).toEqual({
      ...state,
      filters: state.filters.map(({ field, operator, value }) => ({ field, operator, value })),
    });
    expect(encodeCompareSearch(back)).toBe(search);
  });

  it('reads what a link leaves out or gets wrong as the default', () => {
    const state = decodeCompareSearch('?period=someday&compare=nope&group=none&sort=size&dir=up&from=bad', NOW);
    expect(state).toEqual({ ...DEFAULT_COMPARE_STATE });
    expect(decodeCompareSearch('?compare=custom&pfrom=2026-01-01', NOW).compareWith).toEqual({ mode: 'custom', startDate: '2026-01-01' });
    // An empty Include is kept: no type ticked counts every type.
    expect(Object.values(decodeCompareSearch('?include=', NOW).inclusions).some(Boolean)).toBe(false);
  });
});
