/** The ECharts option of the Spending Trend (pure, so it can be tested without a canvas). */
import type { EChartsCoreOption } from 'echarts/core';
import { paletteColors } from '@/components/cost/palettes';
import { formatUsd, formatUsdCompact } from '../../model/format';
import type { AlertMarker, ForecastContinuation, TrendDataType, TrendPoint } from '../../model/trend';
import { daysLabel } from './point-label';

export type TrendChartType = 'bar' | 'line' | 'area';

export const SPENDING_SERIES = 'Spending';
export const BUDGET_SERIES = 'Budget';
export const FORECAST_SERIES = 'Forecast';

export interface SpendingChartData {
  points: ReadonlyArray<TrendPoint>;
  chartType: TrendChartType;
  dataType: TrendDataType;
  /** The dashed Budget line's height; 0 draws no line. */
  budgetLine: number;
  markers: ReadonlyArray<AlertMarker>;
  /** The points that open and close the current period's band, or null for no band. */
  band: { from: TrendPoint; to: TrendPoint } | null;
  /** The dashed Forecast line from the last point to the period's end, or null for none. */
  forecast?: ForecastContinuation | null;
}

// The budget line and the alert triangles stand out from the series colours in red and orange.
const BUDGET_COLOR = '#d32f2f';
const ALERT_COLOR = '#ed6c02';
const BAND_COLOR = 'rgba(80, 112, 221, 0.08)';
const FORECAST_COLOR = '#7b3fb8';

const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The x axis: 'Nov 2026' for months, 'Nov 23' for days and weeks (the week's first day). */
function axisLabel(dataType: TrendDataType) {
  return (value: string) => {
    const date = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(date.getTime())) return value;
    return dataType === 'monthly' ? monthLabel.format(date) : dayLabel.format(date);
  };
}

interface TooltipParam {
  dataIndex: number;
  seriesName: string;
  value: unknown;
  marker: string;
}

/**
 * The tooltip of one point: its days, then each series with its amount; a day after the last
 * point (on the Forecast line) is named by its date, and series without a value there are left out.
 */
export function tooltipText(
  points: ReadonlyArray<TrendPoint>,
  params: ReadonlyArray<TooltipParam>,
  categories: ReadonlyArray<string> = [],
): string {
  const first = params[0];
  if (!first) return '';
  const point = points[first.dataIndex];
  const category = categories[first.dataIndex];
  const title = point ? daysLabel(point) : category ? daysLabel({ startDate: category, endDate: category }) : null;
  if (title === null) return '';
  const lines = params
    .filter((param) => param.value !== null && param.value !== undefined)
    .map((param) => `${param.marker}${param.seriesName}: ${formatUsd(Number(param.value))}`);
  return [title, ...lines].join('<br/>');
}

/** The dashed Forecast series over `categories`: the last point's total, then the forecast at the end. */
function forecastSeries(pointCount: number, categories: ReadonlyArray<string>, forecast: ForecastContinuation) {
  return {
    type: 'line',
    name: FORECAST_SERIES,
    data: categories.map((_, index) => (index === pointCount - 1 ? forecast.from : index === categories.length - 1 ? forecast.to : null)),
    connectNulls: true,
    symbol: 'none',
    color: FORECAST_COLOR,
    lineStyle: { type: 'dashed', width: 2 },
    emphasis: { disabled: true },
  };
}

export function buildSpendingChartOption(data: SpendingChartData): EChartsCoreOption {
  const forecast = data.forecast && data.forecast.days.length > 0 ? data.forecast : null;
  const categories = [...data.points.map((point) => point.startDate), ...(forecast?.days ?? [])];
  const spending = {
    type: data.chartType === 'bar' ? 'bar' : 'line',
    name: SPENDING_SERIES,
    data: data.points.map((point) => point.spent),
    areaStyle: data.chartType === 'area' ? {} : undefined,
    showSymbol: data.points.length <= 31,
    emphasis: { focus: 'series' },
    markPoint:
      data.markers.length > 0
        ? {
            symbol: 'triangle',
            symbolSize: 14,
            itemStyle: { color: ALERT_COLOR },
            label: { show: true, position: 'top', formatter: '{b}', color: ALERT_COLOR, fontWeight: 'bold' },
            data: data.markers.map((marker) => ({ name: marker.label, coord: [marker.date, marker.value], value: marker.value })),
          }
        : undefined,
    markArea: data.band
      ? {
          silent: true,
          itemStyle: { color: BAND_COLOR },
          label: { show: true, position: 'insideTop', formatter: 'Current period', color: '#5070dd' },
          data: [[{ xAxis: data.band.from.startDate }, { xAxis: data.band.to.startDate }]],
        }
      : undefined,
  };
  const budget =
    data.budgetLine > 0
      ? {
          type: 'line',
          name: BUDGET_SERIES,
          data: categories.map(() => data.budgetLine),
          symbol: 'none',
          color: BUDGET_COLOR,
          lineStyle: { type: 'dashed', width: 2 },
          emphasis: { disabled: true },
        }
      : null;

  return {
    color: [...paletteColors()],
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (params: TooltipParam | TooltipParam[]) => tooltipText(data.points, Array.isArray(params) ? params : [params], categories),
    },
    legend: { bottom: 0, left: 'center' },
    grid: { left: 16, right: 24, top: 32, bottom: 40 },
    xAxis: {
      type: 'category',
      data: categories,
      boundaryGap: data.chartType === 'bar',
      axisLabel: { formatter: axisLabel(data.dataType) },
    },
    yAxis: { type: 'value', axisLabel: { formatter: (value: number) => formatUsdCompact(value) } },
    series: [spending, ...(budget ? [budget] : []), ...(forecast ? [forecastSeries(data.points.length, categories, forecast)] : [])],
  };
}
