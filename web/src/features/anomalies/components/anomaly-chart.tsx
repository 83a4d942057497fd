import { Alert, Box } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ECharts } from 'echarts/core';
import { CHART_LOAD_ERROR_MESSAGE, ChartImage, chartsCanRender } from '@/components/cost';
import { formatChartAmount, formatDayLabel, useStableValue } from '@/lib/cost';
import type { AnomalySeriesPoint } from '../types';
import { buildAnomalyChartOption } from '../utils/anomaly-chart-option';

export interface AnomalyChartProps {
  points: AnomalySeriesPoint[];
  currency: string;
  ariaLabel: string;
  height?: number;
}

const amountOrDash = (value: number | null | undefined, currency: string) =>
  value === null || value === undefined ? '—' : formatChartAmount(value, currency);

/** The chart's description (its text alternative besides the name): what it draws, over which days. */
export function describeAnomalyChart(points: readonly AnomalySeriesPoint[], tableName: string): string {
  if (points.length === 0) return `No days to draw. The table “${tableName}” is empty.`;
  const first = formatDayLabel(points[0].day);
  const last = formatDayLabel(points[points.length - 1].day);
  const over = points.length === 1 ? `on ${first}` : `over ${points.length} days, ${first} – ${last}`;
  const anomalous = points.filter((point) => point.anomalous).map((point) => formatDayLabel(point.day));
  const marked = anomalous.length
    ? `${anomalous.length} anomalous ${anomalous.length === 1 ? 'day is' : 'days are'} marked: ${anomalous.slice(0, 5).join(', ')}${anomalous.length > 5 ? ` and ${anomalous.length - 5} more` : ''}`
    : 'no day is marked anomalous';
  return `Line chart of the actual cost per day ${over}, with the expected cost and its low–high band; ${marked}. The figures of each day are in the table “${tableName}”.`;
}

/**
 * Actual cost per day with the expected band (low–high shaded), the expected cost dashed and
 * the anomalous days marked, drawn with the cost screens' ECharts build loaded on first use.
 * Next to it, a visually hidden table of every day, named "{ariaLabel} data", for screen
 * readers and tests (jsdom has no canvas, so there the chart is not drawn).
 */
export function AnomalyChart({ points, currency, ariaLabel, height = 320 }: AnomalyChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<ECharts | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    const element = containerRef.current;
    if (!element || !chartsCanRender()) return undefined;
    let disposed = false;
    let instance: ECharts | null = null;
    let observer: ResizeObserver | null = null;
    import('@/components/cost/echarts-setup').then(
      ({ echarts }) => {
        if (disposed) return;
        instance = echarts.init(element, undefined, { renderer: 'canvas' });
        const drawn = instance;
        observer = new ResizeObserver(() => drawn.resize());
        observer.observe(element);
        setChart(drawn);
      },
      (error: unknown) => {
        console.error('Could not load the chart', error);
        if (!disposed) setLoadFailed(true);
      },
    );
    return () => {
      disposed = true;
      observer?.disconnect();
      instance?.dispose();
      setChart(null);
    };
  }, []);

  const stable = useStableValue({ points, currency });
  const option = useMemo(() => buildAnomalyChartOption(stable.points, stable.currency), [stable]);
  useEffect(() => {
    chart?.setOption(option, { notMerge: true });
  }, [chart, option]);

  return (
    <Box data-testid="anomaly-chart" sx={{ position: 'relative', width: '100%' }}>
      {loadFailed ? <Alert severity="error">{CHART_LOAD_ERROR_MESSAGE}</Alert> : null}
      <ChartImage
        ref={containerRef}
        ariaLabel={ariaLabel}
        description={describeAnomalyChart(points, `${ariaLabel} data`)}
        sx={{ width: '100%', height, display: loadFailed ? 'none' : 'block' }}
      />
      <Box component="table" sx={visuallyHidden} aria-label={`${ariaLabel} data`}>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Actual</th>
            <th scope="col">Expected</th>
            <th scope="col">Low</th>
            <th scope="col">High</th>
            <th scope="col">Anomalous</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.day}>
              <th scope="row">{formatDayLabel(point.day)}</th>
              <td>{formatChartAmount(point.actual, currency)}</td>
              <td>{amountOrDash(point.expected, currency)}</td>
              <td>{amountOrDash(point.low, currency)}</td>
              <td>{amountOrDash(point.high, currency)}</td>
              <td>{point.anomalous ? 'Yes' : 'No'}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
