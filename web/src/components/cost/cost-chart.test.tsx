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

  it('is described by what it draws and lists every figure in a table of its own', () => {
    renderWithProviders(<CostChart type="bar" stacked categories={categories} series={series} ariaLabel="Daily cost by service" />);
    expect(screen.getByRole('img', { name: 'Daily cost by service' })).toHaveAccessibleDescription(
      'Stacked bar chart over 3 days, Nov 1, 2026 – Nov 3, 2026; 2 series: AmazonEC2, Cloud Storage. ' +
        'Each series\' total is in the table “Daily cost by service data”; the figures of each day are in the table “Daily cost by service figures”.',
    );
    const figures = screen.getByRole('table', { name: 'Daily cost by service figures' });
    expect(within(figures).getAllByRole('row').map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['Date', 'AmazonEC2', 'Cloud Storage'],
      ['Nov 1, 2026', '$10.00', '$0.0010'],
      ['Nov 2, 2026', '$20.50', '$0.0020'],
      ['Nov 3, 2026', '$30.00', '$0.00040'],
    ]);
  });

  it('points to the page\'s own table instead when it has one, and names at most five series', () => {
    const many = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((name) => ({ name, values: [1, 2, 3] }));
    renderWithProviders(<CostChart type="line" categories={categories} series={many} ariaLabel="Cost chart" figuresTable="Cost by date" />);
    expect(screen.getByRole('img', { name: 'Cost chart' })).toHaveAccessibleDescription(
      'Line chart over 3 days, Nov 1, 2026 – Nov 3, 2026; 7 series: A, B, C, D, E and 2 more. The figures are in the table “Cost by date” on this page.',
    );
    expect(screen.queryByRole('table', { name: 'Cost chart figures' })).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Cost chart data' })).toBeInTheDocument();
  });

  it('describes a pie by its slices and a chart over named categories by their count', () => {
    renderWithProviders(<CostChart type="pie" categories={categories} series={series} ariaLabel="Share by service" />);
    expect(screen.getByRole('img', { name: 'Share by service' })).toHaveAccessibleDescription(
      'Pie chart of 2 slices: AmazonEC2, Cloud Storage. Each slice\'s amount is in the table “Share by service data”.',
    );
    expect(screen.queryByRole('table', { name: 'Share by service figures' })).not.toBeInTheDocument();
    renderWithProviders(
      <CostChart type="bar" categories={['EC2', 'S3']} series={[{ name: 'Current', values: [5, 7] }]} ariaLabel="Current by service" />,
    );
    expect(screen.getByRole('img', { name: 'Current by service' })).toHaveAccessibleDescription(
      'Bar chart over 2 categories, EC2 to S3; 1 series: Current. ' +
        'Each series\' total is in the table “Current by service data”; the figures of each category are in the table “Current by service figures”.',
    );
    expect(within(screen.getByRole('table', { name: 'Current by service figures' })).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Category',
      'Current',
    ]);
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
