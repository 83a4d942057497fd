/** The ECharts option of a cost chart (pure, so it can be tested without a canvas). */
import type { EChartsCoreOption } from 'echarts/core';
import { formatChartAmount } from '@/lib/cost/format';
import { paletteColors, type ChartPaletteName } from './palettes';

export type CostChartType = 'line' | 'area' | 'bar' | 'pie';

export interface CostChartSeries {
  name: string;
  /** One value per category. */
  values: number[];
}

export interface CostChartData {
  type: CostChartType;
  /** The x axis (dates); ignored by pie. */
  categories: string[];
  /** One per group, aligned with `categories`. */
  series: CostChartSeries[];
  stacked?: boolean;
  /** A slider under the chart to zoom into the x axis. */
  zoom?: boolean;
  /** Horizontal lines (e.g. a budget) across a line, area or bar chart. */
  markLines?: Array<{ value: number; label: string }>;
  /** The series colours (§9); 'default' when left out. */
  palette?: ChartPaletteName;
  /** The currency of the amounts (the answer's `currency`); USD when left out. */
  currency?: string;
}

/** The sum of a series (the pie's slice, the summary table's total). */
export function seriesTotal(series: CostChartSeries): number {
  return series.values.reduce((sum, value) => sum + (Number.isFinite(value) ? value : 0), 0);
}

const tooltipAmount = (currency: string | undefined) => (value: unknown) =>
  typeof value === 'number' ? formatChartAmount(value, currency) : String(value ?? '');

/** The legend scrolls when it has more entries than fit (§2.11). */
const legend = { type: 'scroll', bottom: 0, left: 'center' } as const;

export function buildChartOption(data: CostChartData): EChartsCoreOption {
  const color = [...paletteColors(data.palette)];
  if (data.type === 'pie') {
    return {
      color,
      tooltip: { trigger: 'item', valueFormatter: tooltipAmount(data.currency) },
      legend,
      series: [
        {
          type: 'pie',
          radius: ['40%', '70%'],
          center: ['50%', '45%'],
          avoidLabelOverlap: true,
          // Slices thinner than 6 degrees (under 2 %) keep their name for the tooltip and legend.
          minShowLabelAngle: 6,
          label: { formatter: '{b}: {d}%' },
          data: data.series.map((series) => ({ name: series.name, value: seriesTotal(series) })),
        },
      ],
    };
  }

  const zoomHeight = data.zoom ? 40 : 0;
  const markLine =
    data.markLines && data.markLines.length > 0
      ? {
          symbol: 'none',
          silent: true,
          lineStyle: { type: 'dashed' },
          label: { formatter: '{b}', position: 'insideEndTop' },
          data: data.markLines.map((line) => ({ name: line.label, yAxis: line.value })),
        }
      : undefined;

  return {
    color,
    tooltip: { trigger: 'axis', valueFormatter: tooltipAmount(data.currency), confine: true },
    legend,
    grid: { left: 16, right: 24, top: 24, bottom: 40 + zoomHeight },
    xAxis: { type: 'category', data: data.categories, boundaryGap: data.type === 'bar' },
    yAxis: { type: 'value', axisLabel: { formatter: (value: number) => formatChartAmount(value, data.currency) } },
    dataZoom: data.zoom
      ? [
          { type: 'slider', xAxisIndex: 0, bottom: 32, height: 24 },
          { type: 'inside', xAxisIndex: 0 },
        ]
      : [],
    series: data.series.map((series, index) => ({
      type: data.type === 'bar' ? 'bar' : 'line',
      name: series.name,
      data: series.values,
      stack: data.stacked ? 'total' : undefined,
      areaStyle: data.type === 'area' ? {} : undefined,
      showSymbol: data.categories.length <= 31,
      emphasis: { focus: 'series' },
      markLine: index === 0 ? markLine : undefined,
    })),
  };
}
