import { toChartSeries, toCsvTable, toDateRows } from './date-rows';

const rows = [
  { timestamp: '2026-11-01', service: 'AmazonEC2', amount: 10 },
  { timestamp: '2026-11-01', service: 'AmazonS3', amount: 4 },
  { timestamp: '2026-11-02', service: 'AmazonS3', amount: 6 },
  { timestamp: '2026-11-02', service: 'AmazonEC2', amount: 2 },
  { timestamp: '2026-11-02', service: 'Tax', amount: -1 },
];

describe('toDateRows', () => {
  it('makes one row per date with its total and its groups largest first', () => {
    expect(toDateRows(rows, (r) => r.service)).toEqual([
      { date: '2026-11-01', total: 14, groups: [{ name: 'AmazonEC2', amount: 10 }, { name: 'AmazonS3', amount: 4 }] },
      {
        date: '2026-11-02',
        total: 7,
        groups: [
          { name: 'AmazonS3', amount: 6 },
          { name: 'AmazonEC2', amount: 2 },
          { name: 'Tax', amount: -1 },
        ],
      },
    ]);
  });

  it('sorts dates and adds rows that share a date and group', () => {
    const folded = toDateRows(
      [
        { timestamp: '2026-11-03', amount: 1 },
        { timestamp: '2026-11-01', amount: 2 },
        { timestamp: '2026-11-01', amount: 3 },
      ],
      () => 'Total',
    );
    expect(folded.map((r) => [r.date, r.total])).toEqual([
      ['2026-11-01', 5],
      ['2026-11-03', 1],
    ]);
  });
});

describe('toChartSeries', () => {
  it('aligns one series per group with the dates, zero where a group has no cost', () => {
    expect(toChartSeries(toDateRows(rows, (r) => r.service))).toEqual({
      categories: ['2026-11-01', '2026-11-02'],
      series: [
        { name: 'AmazonEC2', values: [10, 2] },
        { name: 'AmazonS3', values: [4, 6] },
        { name: 'Tax', values: [0, -1] },
      ],
      omittedSeries: 0,
    });
  });

  it('draws at most 10000 data items: the smallest groups are left out first', () => {
    const many = Array.from({ length: 12 }, (_, d) => `2026-11-${String(d + 1).padStart(2, '0')}`).flatMap((timestamp) =>
      Array.from({ length: 850 }, (_, g) => ({ timestamp, service: `S${g}`, amount: 850 - g })),
    );
    const chart = toChartSeries(toDateRows(many, (r) => r.service));
    expect(chart.series).toHaveLength(833);
    expect(chart.series.length * chart.categories.length).toBeLessThanOrEqual(10_000);
    expect(chart.omittedSeries).toBe(17);
    expect(chart.series.at(-1)?.name).toBe('S832');
    expect(toChartSeries(toDateRows(rows, (r) => r.service), 4)).toMatchObject({ series: [{ name: 'AmazonEC2' }, { name: 'AmazonS3' }], omittedSeries: 1 });
  });
});

describe('toCsvTable', () => {
  it('writes one line per date and group whose amounts add up to the total', () => {
    const table = toCsvTable(toDateRows(rows, (r) => r.service), 'Service');
    expect(table.header).toEqual(['Date', 'Service', 'Amount']);
    expect(table.rows).toEqual([
      ['2026-11-01', 'AmazonEC2', 10],
      ['2026-11-01', 'AmazonS3', 4],
      ['2026-11-02', 'AmazonS3', 6],
      ['2026-11-02', 'AmazonEC2', 2],
      ['2026-11-02', 'Tax', -1],
    ]);
    expect(table.rows.reduce((sum, r) => sum + (r[2] as number), 0)).toBe(21);
  });

  it('writes date and amount only when ungrouped', () => {
    expect(toCsvTable(toDateRows(rows, () => 'Total'), null)).toEqual({
      header: ['Date', 'Amount'],
      rows: [
        ['2026-11-01', 14],
        ['2026-11-02', 7],
      ],
    });
  });
});
