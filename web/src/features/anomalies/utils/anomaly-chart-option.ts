/** The ECharts option of an anomaly's chart (pure, so it can be tested without a canvas). */
import type { EChartsCoreOption } from 'echarts/core';
import { formatChartAmount, formatDayLabel } from '@/lib/cost';
import type { AnomalySeriesPoint } from '../types';

export const ACTUAL_SERIES = 'Actual';
export const EXPECTED_SERIES = 'Expected';
export const BAND_SERIES = 'Expected range';
export const ANOMALOUS_SERIES = 'Anomalous day';
/** The band's invisible base (its low edge); the band series stacks high − low on it. */
const BAND_BASE = 'band-low';

const ACTUAL_COLOR = '#1f5fbf';
const EXPECTED_COLOR = '#6b7280';
const BAND_COLOR = 'rgba(107, 114, 128, 0.18)';
const ANOMALY_COLOR = '#d32f2f';

const dayAxis = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function axisDay(value: string): string {
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : dayAxis.format(date);
}

/** One day's tooltip: the day, actual, expected and the range when known, and whether it is anomalous. */
export function tooltipLines(point: AnomalySeriesPoint, currency: string): string[] {
  const amount = (value: number) => formatChartAmount(value, currency);
  const lines = [formatDayLabel(point.day), `${ACTUAL_SERIES}: ${amount(point.actual)}`];
  if (point.expected !== null && point.expected !== undefined) lines.push(`${EXPECTED_SERIES}: ${amount(point.expected)}`);
  if (point.low !== null && point.low !== undefined && point.high !== null && point.high !== undefined) {
    lines.push(`${BAND_SERIES}: ${amount(point.low)} – ${amount(point.high)}`);
  }
  if (point.anomalous) lines.push(ANOMALOUS_SERIES);
  return lines;
}

const known = (value: number | null | undefined): number | null => (value === null || value === undefined ? null : value);

export function buildAnomalyChartOption(points: ReadonlyArray<AnomalySeriesPoint>, currency: string): EChartsCoreOption {
  const hidden = { lineStyle: { opacity: 0 }, symbol: 'none', silent: true, emphasis: { disabled: true } } as const;
  return {
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (params: { dataIndex: number } | Array<{ dataIndex: number }>) => {
        const first = Array.isArray(params) ? params[0] : params;
        const point = first ? points[first.dataIndex] : undefined;
        return point ? tooltipLines(point, currency).join('<br/>') : '';
      },
    },
    legend: { bottom: 0, left: 'center', data: [ACTUAL_SERIES, EXPECTED_SERIES, BAND_SERIES, ANOMALOUS_SERIES] },
    grid: { left: 16, right: 24, top: 24, bottom: 40, containLabel: true },
    xAxis: { type: 'category', data: points.map((point) => point.day), boundaryGap: false, axisLabel: { formatter: axisDay } },
    yAxis: { type: 'value', axisLabel: { formatter: (value: number) => formatChartAmount(value, currency) } },
    series: [
      { ...hidden, type: 'line', name: BAND_BASE, stack: 'band', data: points.map((point) => known(point.low)) },
      {
        ...hidden,
        type: 'line',
        name: BAND_SERIES,
        stack: 'band',
        color: BAND_COLOR,
        areaStyle: { color: BAND_COLOR },
        data: points.map((point) => {
          const low = known(point.low);
          const high = known(point.high);
          return low === null || high === null ? null : Math.max(0, high - low);
        }),
      },
      {
        type: 'line',
        name: EXPECTED_SERIES,
        color: EXPECTED_COLOR,
        symbol: 'none',
        lineStyle: { type: 'dashed', width: 2 },
        data: points.map((point) => known(point.expected)),
      },
      {
        type: 'line',
        name: ACTUAL_SERIES,
        color: ACTUAL_COLOR,
        showSymbol: points.length <= 62,
        lineStyle: { width: 2 },
        data: points.map((point) => point.actual),
      },
      {
        // Only the symbols: a red dot on each anomalous day.
        type: 'line',
        name: ANOMALOUS_SERIES,
        color: ANOMALY_COLOR,
        lineStyle: { opacity: 0 },
        symbol: 'circle',
        symbolSize: 10,
        showSymbol: true,
        z: 5,
        data: points.map((point) => (point.anomalous ? point.actual : null)),
      },
    ],
  };
}
