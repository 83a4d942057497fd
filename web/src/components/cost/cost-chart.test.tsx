import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { buildChartOption } from './chart-option';
import { chartsCanRender } from './chart-loader';
import { CostChart } from './cost-chart';

const categories = ['2026-11-01', '2026-11-02', '2026-11-03'];
const series = [
  { name: 'AmazonEC2', values: [10, 20.5, 30] },
  { name: 'Cloud Storage', values: [0.001, 0.002, 0.0004] },
];

type Option = Record<string, unknown> & {
  series: Array<Record<string, unknown>>;
  legend: Record<string, unknown>;
  dataZoom?: Array<Record<string, unknown>>;
  tooltip: { valueFormatter: (value: unknown) => string };
};

describe('CostChart in a test browser', () => {
  it('is not drawn where there is no canvas', () => {
    expect(chartsCanRender()).toBe(false);
  });

  it('names the chart and lists each series with its total', () => {
    renderWithProviders(<CostChart type="bar" categories={categories} series={series} ariaLabel="Daily cost by service" />);
    expect(screen.getByRole('img', { name: 'Daily cost by service' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Daily cost by service data' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['AmazonEC2$60.50', 'Cloud Storage$0.0034']);
    expect(screen.getByTestId('cost-chart')).toHaveAttribute('data-chart-type', 'bar');
  });
});

describe('buildChartOption', () => {
  it('draws lines, areas and bars per series over the categories', () => {
    const line = buildChartOption({ type: 'line', categories, series }) as Option;
    expect(line.xAxis).toMatchObject({ type: 'category', data: categories });
    expect(line.series.map((s) => [s.type, s.name, s.data, s.areaStyle, s.stack])).toEqual([
      ['line', 'AmazonEC2', [10, 20.5, 30], undefined, undefined],
      ['line', 'Cloud Storage', [0.001, 0.002, 0.0004], undefined, undefined],
    ]);
    const area = buildChartOption({ type: 'area', categories, series, stacked: true }) as Option;
    expect(area.series.every((s) => s.type === 'line' && s.areaStyle && s.stack === 'total')).toBe(true);
    const bar = buildChartOption({ type: 'bar', categories, series, stacked: true }) as Option;
    expect(bar.series.every((s) => s.type === 'bar' && s.stack === 'total')).toBe(true);
  });

  it('has a scrolling legend and a zoom slider only when asked', () => {
    const plain = buildChartOption({ type: 'line', categories, series }) as Option;
    expect(plain.legend.type).toBe('scroll');
    expect(plain.dataZoom).toEqual([]);
    const zoomed = buildChartOption({ type: 'line', categories, series, zoom: true }) as Option;
    expect(zoomed.dataZoom?.map((z) => z.type)).toEqual(['slider', 'inside']);
  });

  it('shows small amounts with up to 6 decimals in the tooltip', () => {
    const option = buildChartOption({ type: 'line', categories, series }) as Option;
    expect(option.tooltip.valueFormatter(0.000123)).toBe('$0.00012');
    expect(option.tooltip.valueFormatter(1234.5)).toBe('$1,234.50');
  });

  it('makes one slice per series for a pie', () => {
    const pie = buildChartOption({ type: 'pie', categories, series }) as Option;
    expect(pie.series).toHaveLength(1);
    expect(pie.series[0].type).toBe('pie');
    const slices = pie.series[0].data as Array<{ name: string; value: number }>;
    expect(slices.map((slice) => slice.name)).toEqual(['AmazonEC2', 'Cloud Storage']);
    expect(slices[0].value).toBeCloseTo(60.5, 10);
    expect(slices[1].value).toBeCloseTo(0.0034, 10);
  });

  it('draws mark lines on the first series', () => {
    const option = buildChartOption({ type: 'bar', categories, series, markLines: [{ value: 50, label: 'Budget' }] }) as Option;
    expect(option.series[0].markLine).toMatchObject({ data: [{ name: 'Budget', yAxis: 50 }] });
    expect(option.series[1].markLine).toBeUndefined();
  });
});
