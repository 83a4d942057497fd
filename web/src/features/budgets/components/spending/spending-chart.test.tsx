import { act, render, screen, waitFor, within } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { dailyPoints } from '../../model/trend';
import { SpendingChart, type SpendingChartHandle } from './spending-chart';
import type { SpendingChartData } from './spending-chart-option';

const fake = await vi.hoisted(async () => (await import('./test-helpers')).createFakeEcharts());
vi.mock('./spending-echarts', () => ({ echarts: fake.echarts }));
vi.mock('@/components/cost/chart-loader', () => ({ chartsCanRender: () => true }));

const data: SpendingChartData = {
  points: dailyPoints([
    { date: '2026-11-01', amountSpent: 100 },
    { date: '2026-11-02', amountSpent: 250.4 },
  ]),
  chartType: 'bar',
  dataType: 'daily',
  budgetLine: 100,
  markers: [],
  band: null,
};

function renderChart(overrides: { onPointClick?: (index: number) => void; onDrawnChange?: (drawn: boolean) => void } = {}) {
  const ref = createRef<SpendingChartHandle>();
  const onPointClick = overrides.onPointClick ?? vi.fn();
  render(<SpendingChart ref={ref} data={data} height={400} ariaLabel="Spending trend chart" onPointClick={onPointClick} onDrawnChange={overrides.onDrawnChange} />);
  return { ref, onPointClick };
}

describe('SpendingChart', () => {
  it('shows Loading chart... until the chart library has drawn it', async () => {
    fake.instance.setOption.mockClear();
    const onDrawnChange = vi.fn();
    renderChart({ onDrawnChange });
    expect(screen.getByText('Loading chart...')).toBeInTheDocument();
    await waitFor(() => expect(fake.instance.setOption).toHaveBeenCalled());
    expect(screen.queryByText('Loading chart...')).not.toBeInTheDocument();
    expect(onDrawnChange).toHaveBeenLastCalledWith(true);
    expect(screen.getByRole('img', { name: 'Spending trend chart' })).toBeVisible();
  });

  it('lists the points in a table for screen readers', () => {
    renderChart();
    const table = screen.getByRole('table', { name: 'Spending trend chart data' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'DateSpendingBudget',
      'Nov 1, 2026$100$100',
      'Nov 2, 2026$250$100',
    ]);
  });

  it('describes the chart: its type, days, budget line, alerts and forecast, and names its table', () => {
    renderChart();
    expect(screen.getByRole('img', { name: 'Spending trend chart' })).toHaveAccessibleDescription(
      'Bar chart of daily spending, 2 points, Nov 1, 2026 – Nov 2, 2026; the budget line at $100. The figures of each point are in the table “Spending trend chart data”.',
    );
    const withMore: SpendingChartData = {
      ...data,
      chartType: 'line',
      dataType: 'cumulative',
      markers: [{ label: '75%', date: '2026-11-02', value: 75 }],
      forecast: { days: ['2026-11-03', '2026-11-30'], from: 350, to: 900 },
    };
    render(<SpendingChart data={withMore} height={400} ariaLabel="Cumulative trend" onPointClick={vi.fn()} />);
    expect(screen.getByRole('img', { name: 'Cumulative trend' })).toHaveAccessibleDescription(
      'Line chart of cumulative spending, 2 points, Nov 1, 2026 – Nov 2, 2026; the budget line at $100; alert 75% reached on Nov 2, 2026 ($75); forecast from $350 to $900 by Nov 30, 2026. The figures of each point are in the table “Cumulative trend data”.',
    );
  });

  it('reports the index of the point whose column was clicked, and ignores clicks outside the plot', async () => {
    const { onPointClick } = renderChart();
    await waitFor(() => expect(fake.instance.setOption).toHaveBeenCalled());
    act(() => fake.clickPoint(1));
    expect(onPointClick).toHaveBeenCalledWith(1);
    act(() => fake.clickPoint(0, -5));
    expect(onPointClick).toHaveBeenCalledTimes(1);
  });

  it('exports a PNG at pixel ratio 2', async () => {
    const { ref } = renderChart();
    // The instance is kept once the chart is drawn, which may be a tick after setOption.
    await waitFor(() => expect(ref.current?.toPngDataUrl()).toBe('data:image/png;base64,iVBORw0KGgo='));
    expect(fake.instance.getDataURL).toHaveBeenCalledWith(expect.objectContaining({ type: 'png', pixelRatio: 2 }));
  });

  it('shows the Chart Error panel when the chart cannot be drawn', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fake.instance.setOption.mockImplementationOnce(() => {
      throw new Error('bad option');
    });
    renderChart();
    expect(await screen.findByText('Chart Error')).toBeInTheDocument();
    expect(screen.getByText('Unable to display chart')).toBeInTheDocument();
    expect(error).toHaveBeenCalled();
  });
});
