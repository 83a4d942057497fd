import {
  filterChipLabels,
  milestonePercents,
  providerBadge,
  ribbonTone,
  spendTrend,
} from './card-rules';

describe('ribbonTone', () => {
  it('is blue for Monthly, purple for Quarterly and green otherwise', () => {
    expect(ribbonTone('Monthly')).toBe('blue');
    expect(ribbonTone('Quarterly')).toBe('purple');
    expect(ribbonTone('Yearly')).toBe('green');
    expect(ribbonTone('Weekly')).toBe('green');
  });
});

describe('providerBadge', () => {
  it('names up to two providers', () => {
    expect(providerBadge([])).toEqual({ shown: [], more: 0 });
    expect(providerBadge(['AWS'])).toEqual({ shown: ['AWS'], more: 0 });
    expect(providerBadge(['AWS', 'GCP'])).toEqual({ shown: ['AWS', 'GCP'], more: 0 });
  });

  it('counts every provider it does not name as +N', () => {
    expect(providerBadge(['AWS', 'GCP', 'Azure'])).toEqual({ shown: ['AWS', 'GCP'], more: 1 });
    expect(providerBadge(['AWS', 'GCP', 'Azure', 'OCI'])).toEqual({ shown: ['AWS', 'GCP'], more: 2 });
  });
});

describe('filterChipLabels', () => {
  it('makes one label per value, named by the filter type', () => {
    expect(
      filterChipLabels([
        { filterType: 'account', filterValues: ['111', '222'] },
        { filterType: 'tag', filterValues: ['team:web'] },
      ]),
    ).toEqual(['Account: 111', 'Account: 222', 'Tag: team:web']);
  });
});

describe('spendTrend', () => {
  it('compares with the previous period in percent', () => {
    expect(spendTrend(1200, 1000)).toEqual({ direction: 'up', changePercent: 20 });
    expect(spendTrend(800, 1000)).toEqual({ direction: 'down', changePercent: -20 });
    expect(spendTrend(1000, 1000)).toEqual({ direction: 'flat', changePercent: 0 });
  });

  it('is null without a previous spend', () => {
    expect(spendTrend(1000, undefined)).toBeNull();
    expect(spendTrend(1000, null)).toBeNull();
    expect(spendTrend(1000, 0)).toBeNull();
  });
});

describe('milestonePercents', () => {
  it('keeps the percentage alerts up to 100, sorted, each once', () => {
    expect(
      milestonePercents([
        { thresholdType: 'Percentage', thresholdValue: 100 },
        { thresholdType: 'Absolute', thresholdValue: 50 },
        { thresholdType: 'Percentage', thresholdValue: 50 },
        { thresholdType: 'Percentage', thresholdValue: 50 },
      ]),
    ).toEqual([50, 100]);
  });
});
