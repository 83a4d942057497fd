// Fixtures shaped as the server answers (docs/ANOMALIES.md, "Anomalies API").
import type { Anomaly, AnomalyDetail, AnomalyList, AnomalySeriesPoint, AnomalySettings } from '../types';

export function makeAnomaly(overrides: Partial<Anomaly> = {}): Anomaly {
  return {
    id: 1,
    start: '2026-11-10',
    end: '2026-11-12',
    days: 3,
    provider: 'aws',
    accountId: '123456789012',
    accountName: 'Production',
    service: 'Amazon EC2',
    tagKey: null,
    tagValue: null,
    currency: 'USD',
    actual: 4_500,
    expected: 3_000,
    impact: 1_500,
    impactPercent: 50,
    status: 'open',
    detectedAt: '2026-11-12T06:00:00Z',
    updatedAt: '2026-11-12T06:00:00Z',
    contributors: { usageTypes: [], resources: [] },
    ...overrides,
  };
}

/** A tag series: no provider, account or service. */
export function makeTagAnomaly(overrides: Partial<Anomaly> = {}): Anomaly {
  return makeAnomaly({ provider: null, accountId: null, accountName: null, service: null, tagKey: 'team', tagValue: 'data', ...overrides });
}

/** The list answer; the open count and impact are given (the server sums them per currency). */
export function makeList(anomalies: Anomaly[], openImpact: AnomalyList['openImpact'] = []): AnomalyList {
  return { anomalies, openCount: anomalies.filter((a) => a.status === 'open').length, openImpact };
}

/**
 * Days from `first` with a flat 1,000 a day expected (band 900–1,100), `anomalous` days at
 * 1,500; the first `young` days have no expected cost yet.
 */
export function makeSeries(first: string, days: number, { anomalous = [] as number[], young = 0 } = {}): AnomalySeriesPoint[] {
  const start = new Date(`${first}T00:00:00Z`).getTime();
  return Array.from({ length: days }, (_, index) => {
    const day = new Date(start + index * 86_400_000).toISOString().slice(0, 10);
    const isYoung = index < young;
    const isAnomalous = anomalous.includes(index);
    return {
      day,
      actual: isAnomalous ? 1_500 : 1_000,
      expected: isYoung ? null : 1_000,
      low: isYoung ? null : 900,
      high: isYoung ? null : 1_100,
      anomalous: isAnomalous,
    };
  });
}

export function makeDetail(overrides: Partial<AnomalyDetail> = {}): AnomalyDetail {
  return { ...makeAnomaly(), series: makeSeries('2026-10-13', 28 + 3 + 7, { anomalous: [28, 29, 30] }), ...overrides };
}

export function makeSettings(overrides: Partial<AnomalySettings> = {}): AnomalySettings {
  return { relativeThreshold: 0.2, absoluteThreshold: 100, tagKeys: [], channelIds: [], ...overrides };
}
