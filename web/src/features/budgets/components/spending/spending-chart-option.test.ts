import { describe, expect, it } from 'vitest';
import { cumulativePoints, weeklyPoints, type TrendPoint } from '../../model/trend';
import { buildSpendingChartOption, tooltipText, type SpendingChartData } from './spending-chart-option';

type Series = Record<string, unknown> & { name: string; type: string; data: unknown[] };
type Option = {
  series: Series[];
  xAxis: { type: string; data: string[]; boundaryGap: boolean; axisLabel: { formatter: (value: string) => string } };
  yAxis: { axisLabel: { formatter: (value: number) => string } };
};

const points: TrendPoint[] = cumulativePoints(
  [
    { date: '2026-10-30', amountSpent: 40 },
    { date: '2026-10-31', amountSpent: 40 },
    { date: '2026-11-01', amountSpent: 60 },
    { date: '2026-11-02', amountSpent: 30 },
  ],
  'Monthly',
);

function build(overrides: Partial<SpendingChartData> = {}): Option {
  return buildSpendingChartOption({
    points,
    chartType: 'line',
    dataType: 'cumulative',
    budgetLine: 100,
    markers: [],
    band: null,
    ...overrides,
  }) as unknown as Option;
}

describe('buildSpendingChartOption', () => {
  it('draws the Spending series over the points as bars, lines or areas', () => {
    const line = build();
    expect(line.xAxis.data).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
    expect(line.series[0]).toMatchObject({ name: 'Spending', type: 'line', data: [40, 80, 60, 90] });
    expect(line.series[0].areaStyle).toBeUndefined();
    expect(build({ chartType: 'area' }).series[0]).toMatchObject({ type: 'line', areaStyle: {} });
    const bar = build({ chartType: 'bar' });
    expect(bar.series[0].type).toBe('bar');
    expect(bar.xAxis.boundaryGap).toBe(true);
  });

  it('adds a dashed Budget line only when there is an amount', () => {
    const budget = build().series[1];
    expect(budget).toMatchObject({ name: 'Budget', type: 'line', data: [100, 100, 100, 100], lineStyle: { type: 'dashed' } });
    expect(build({ budgetLine: 0 }).series.map((series) => series.name)).toEqual(['Spending']);
  });

  it('continues with a dashed Forecast line from the last point to the period end, the budget line along', () => {
    const option = build({ forecast: { days: ['2026-11-03', '2026-11-04'], from: 90, to: 150 } });
    expect(option.xAxis.data).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04']);
    expect(option.series[0].data).toEqual([40, 80, 60, 90]);
    expect(option.series[1].data).toEqual([100, 100, 100, 100, 100, 100]);
    expect(option.series[2]).toMatchObject({
      name: 'Forecast',
      type: 'line',
      data: [null, null, null, 90, null, 150],
      connectNulls: true,
      lineStyle: { type: 'dashed' },
    });
    expect(build({ forecast: null }).series.map((series) => series.name)).toEqual(['Spending', 'Budget']);
  });

  it('names a forecast day by its date in the tooltip, without the series that have no value there', () => {
    const categories = ['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02', '2026-11-03'];
    const params = [
      { dataIndex: 4, seriesName: 'Spending', value: undefined, marker: '' },
      { dataIndex: 4, seriesName: 'Forecast', value: 150, marker: '' },
    ];
    expect(tooltipText(points, params, categories)).toBe('Nov 3, 2026<br/>Forecast: $150');
  });

  it('draws alert markers as triangles at the threshold, labelled with it', () => {
    const option = build({ markers: [{ label: '75%', date: '2026-11-02', value: 75 }] });
    expect(option.series[0].markPoint).toMatchObject({
      symbol: 'triangle',
      data: [{ name: '75%', coord: ['2026-11-02', 75], value: 75 }],
      label: { show: true, formatter: '{b}' },
    });
    expect(build().series[0].markPoint).toBeUndefined();
  });

  it('highlights the current period as a band from its first to its last point', () => {
    const option = build({ band: { from: points[2], to: points[3] } });
    expect(option.series[0].markArea).toMatchObject({ data: [[{ xAxis: '2026-11-01' }, { xAxis: '2026-11-02' }]] });
    expect(build().series[0].markArea).toBeUndefined();
  });

  it('writes amounts on the y axis abbreviated and months on the x axis by name', () => {
    const option = build();
    expect(option.yAxis.axisLabel.formatter(5300)).toBe('$5.3K');
    expect(option.xAxis.axisLabel.formatter('2026-11-02')).toBe('Nov 2');
    expect(build({ dataType: 'monthly' }).xAxis.axisLabel.formatter('2026-11-01')).toBe('Nov 2026');
  });
});

describe('tooltipText', () => {
  it('names the days of the point and each series amount', () => {
    const weeks = weeklyPoints(
      Array.from({ length: 7 }, (_, index) => ({ date: `2026-11-0${index + 1}`, amountSpent: 10 })),
      'Monthly',
    );
    const text = tooltipText(weeks, [
      { dataIndex: 0, seriesName: 'Spending', value: 70, marker: '' },
      { dataIndex: 0, seriesName: 'Budget', value: 1154.7, marker: '' },
    ]);
    expect(text).toBe('Nov 1, 2026 – Nov 7, 2026<br/>Spending: $70<br/>Budget: $1,155');
    expect(tooltipText(weeks, [])).toBe('');
  });
});
