import type { CostRow } from '@/lib/cost';
import { buildChartData } from './chart-data';
import { groupTableRows, periodTableRows, sortGroupRows } from './table-rows';

function row(values: Partial<CostRow> & { amount: number }): CostRow {
  return { grouping_values: [], grouping_path: '', ...values };
}

describe('chart data', () => {
  const rows = [
    row({ timestamp: '2026-11-01', service: 'AmazonEC2', amount: 10 }),
    row({ timestamp: '2026-11-01', service: 'AmazonS3', amount: 2 }),
    row({ timestamp: '2026-11-02', service: 'AmazonEC2', amount: 11 }),
    row({ timestamp: '2026-11-03', service: 'AmazonS3', amount: 4 }),
    row({ timestamp: '2026-11-09', service: 'AmazonS3', amount: 1 }),
  ];

  it('stacks by the primary group: one series per group, aligned on the periods, largest first', () => {
    const chart = buildChartData(rows, 'daily', '2026-11-01', 'service');
    expect(chart.categories).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-09']);
    expect(chart.series).toEqual([
      { name: 'AmazonEC2', values: [10, 11, 0, 0], total: 21 },
      { name: 'AmazonS3', values: [2, 0, 4, 1], total: 7 },
    ]);
    expect(chart.omittedSeries).toBe(0);
  });

  it('sums days into ISO weeks (Monday, UTC) for the Weekly view, never before the range start', () => {
    // 2026-11-01 is a Sunday: its week starts Monday 2026-10-26, before the range.
    const chart = buildChartData(rows, 'weekly', '2026-11-01', 'service');
    expect(chart.periods).toEqual(['2026-11-01', '2026-11-02', '2026-11-09']);
    expect(chart.series.find((s) => s.name === 'AmazonS3')?.values).toEqual([2, 4, 1]);
  });

  it('names monthly periods by month and ungrouped answers as the total', () => {
    const chart = buildChartData([row({ timestamp: '2026-10-01', amount: 5 }), row({ timestamp: '2026-11-01', amount: 6 })], 'monthly', '2026-10-01', undefined);
    expect(chart.categories).toEqual(['Oct 2026', 'Nov 2026']);
    expect(chart.series).toEqual([{ name: 'Total cost', values: [5, 6], total: 11 }]);
  });

  it('keeps series × periods within 10000 data items', () => {
    const many: CostRow[] = [];
    for (let g = 0; g < 40; g += 1) {
      for (let d = 0; d < 365; d += 1) {
        const day = new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10);
        many.push(row({ timestamp: day, region: `region-${g}`, amount: 40 - g }));
      }
    }
    const chart = buildChartData(many, 'daily', '2025-01-01', 'region');
    expect(chart.series).toHaveLength(27);
    expect(chart.omittedSeries).toBe(13);
    expect(chart.series[0].name).toBe('region-0');
    expect(chart.series.length * chart.periods.length).toBeLessThanOrEqual(10_000);
  });
});

describe('table rows', () => {
  it('one row per combination with its share of the period total; accounts keep their id', () => {
    const rows = [
      row({ service: 'AmazonEC2', account: '111111111111', account_name: 'Production', amount: 75 }),
      row({ service: 'AmazonS3', account: '222222222222', account_name: 'Staging', amount: 25 }),
    ];
    const table = groupTableRows(rows, ['service', 'account'], 200, 2);
    expect(table.rows.map(({ values, amount, share }) => ({ values, amount, share }))).toEqual([
      { values: ['AmazonEC2', 'Production (111111111111)'], amount: 75, share: 37.5 },
      { values: ['AmazonS3', 'Staging (222222222222)'], amount: 25, share: 12.5 },
    ]);
    expect(table.truncated).toBe(false);
    expect(groupTableRows([row({ cloud_provider: 'gcp', amount: 1 })], ['cloud_provider'], 1, 1).rows[0].values).toEqual(['GCP']);
  });

  it('flattens the hierarchy form (children) into combinations', () => {
    const rows = [
      row({
        service: 'AmazonEC2',
        amount: 30,
        children: [row({ service: 'AmazonEC2', region: 'us-east-1', amount: 20 }), row({ service: 'AmazonEC2', region: 'eu-west-1', amount: 10 })],
      }),
      row({ service: 'AmazonS3', amount: 5, children: [row({ region: 'us-east-1', amount: 5 })] }),
    ];
    const table = groupTableRows(rows, ['service', 'region'], 35, 2);
    expect(table.rows.map((r) => [...r.values, r.amount])).toEqual([
      ['AmazonEC2', 'us-east-1', 20],
      ['AmazonEC2', 'eu-west-1', 10],
      ['AmazonS3', 'us-east-1', 5],
    ]);
  });

  it('renders at most 1000 combinations and says how many there are', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row({ usage_type: `type-${i}`, amount: 1000 - i }));
    const table = groupTableRows(rows, ['usage_type'], 500_500, 1234);
    expect(table.rows).toHaveLength(1000);
    expect(table.total).toBe(1234);
    expect(table.truncated).toBe(true);
    const nested = [row({ service: 'A', amount: 1, children: Array.from({ length: 1200 }, (_, i) => row({ region: `r${i}`, amount: 1 })) })];
    const capped = groupTableRows(nested, ['service', 'region'], 1200, 1);
    expect(capped.rows).toHaveLength(1000);
    expect(capped.total).toBe(1200);
    expect(capped.truncated).toBe(true);
  });

  it('ungrouped: one row per period, at most 365, no share for running totals', () => {
    const days = Array.from({ length: 400 }, (_, d) => row({ timestamp: new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10), amount: 2 }));
    const chart = buildChartData(days, 'daily', '2025-01-01', undefined);
    const table = periodTableRows(chart, 'daily', 800);
    expect(table.rows).toHaveLength(365);
    expect(table.total).toBe(400);
    expect(table.truncated).toBe(true);
    expect(table.rows[0]).toEqual({ key: '2025-01-01', period: 'Jan 1, 2025', amount: 2, share: 0.25 });
    expect(periodTableRows(chart, 'cumulative', 800).rows[0].share).toBeNull();
    expect(periodTableRows(buildChartData(days.slice(0, 7), 'weekly', '2025-01-01', undefined), 'weekly', 14).rows.map((r) => r.period)).toEqual([
      'Week of Jan 1, 2025',
      'Week of Jan 6, 2025',
    ]);
  });

  it('sorts by cost or by a dimension', () => {
    const rows = groupTableRows(
      [row({ region: 'b', amount: 1 }), row({ region: 'a', amount: 3 }), row({ region: 'c', amount: 2 })],
      ['region'],
      6,
      3,
    ).rows;
    expect(sortGroupRows(rows, { field: 'cost', direction: 'desc' }, ['region']).map((r) => r.amount)).toEqual([3, 2, 1]);
    expect(sortGroupRows(rows, { field: 'cost', direction: 'asc' }, ['region']).map((r) => r.amount)).toEqual([1, 2, 3]);
    expect(sortGroupRows(rows, { field: 'region', direction: 'asc' }, ['region']).map((r) => r.values[0])).toEqual(['a', 'b', 'c']);
  });
});
