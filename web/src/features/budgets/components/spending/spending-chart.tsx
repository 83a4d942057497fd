import { Box } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import type { ECharts } from 'echarts/core';
import { ChartImage } from '@/components/cost/chart-image';
import { chartsCanRender } from '@/components/cost/chart-loader';
import { useStableValue } from '@/lib/cost/storage';
import { formatDayLabel } from '@/lib/cost/time-range';
import { formatUsd } from '../../model/format';
import { ChartErrorPanel, ChartLoading } from './chart-states';
import { daysLabel } from './point-label';
import { BUDGET_SERIES, SPENDING_SERIES, buildSpendingChartOption, type SpendingChartData } from './spending-chart-option';

/** §9: the image export is a PNG at twice the screen's resolution. */
export const IMAGE_PIXEL_RATIO = 2;

export interface SpendingChartHandle {
  /** The chart as a PNG data URL, or null while it is not drawn. */
  toPngDataUrl(): string | null;
}

export interface SpendingChartProps {
  data: SpendingChartData;
  height: number;
  ariaLabel: string;
  /** A click anywhere over a point's column: the index of that point. */
  onPointClick(index: number): void;
  /** Told when the chart becomes drawn (and so can be exported as an image) or stops being drawn. */
  onDrawnChange?(drawn: boolean): void;
  ref?: Ref<SpendingChartHandle>;
}

type ChartState = 'loading' | 'drawn' | 'failed';

const CHART_TYPE_NAMES = { bar: 'Bar chart', line: 'Line chart', area: 'Area chart' } as const;

/**
 * The chart's description (its text alternative besides the name): what it draws, over which
 * days, and the figures only the drawing shows (the budget line, the alert triangles, the forecast).
 */
export function describeSpendingChart(data: SpendingChartData, tableName: string): string {
  const { points } = data;
  if (points.length === 0) return `${CHART_TYPE_NAMES[data.chartType]} of ${data.dataType} spending with no points.`;
  const first = points[0];
  const last = points[points.length - 1];
  const parts = [
    `${CHART_TYPE_NAMES[data.chartType]} of ${data.dataType} spending, ${points.length} ${points.length === 1 ? 'point' : 'points'}, ${daysLabel({ startDate: first.startDate, endDate: last.endDate })}`,
  ];
  if (data.budgetLine > 0) parts.push(`the budget line at ${formatUsd(data.budgetLine)}`);
  for (const marker of data.markers) parts.push(`alert ${marker.label} reached on ${formatDayLabel(marker.date)} (${formatUsd(marker.value)})`);
  if (data.forecast && data.forecast.days.length) {
    const end = data.forecast.days[data.forecast.days.length - 1];
    parts.push(`forecast from ${formatUsd(data.forecast.from)} to ${formatUsd(data.forecast.to)} by ${formatDayLabel(end)}`);
  }
  return `${parts.join('; ')}. The figures of each point are in the table “${tableName}”.`;
}

/**
 * The Spending Trend chart, drawn with ECharts loaded on first use (the shared build plus mark
 * points and areas). Next to the drawing is a visually hidden table of its points, named
 * "{ariaLabel} data", for screen readers and for tests (jsdom has no canvas, so there the chart
 * is not drawn).
 */
export function SpendingChart({ data, height, ariaLabel, onPointClick, onDrawnChange, ref }: SpendingChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<ECharts | null>(null);
  const [state, setState] = useState<ChartState>(() => (chartsCanRender() ? 'loading' : 'drawn'));
  const clickRef = useRef(onPointClick);
  clickRef.current = onPointClick;
  const drawnRef = useRef(onDrawnChange);
  drawnRef.current = onDrawnChange;

  useImperativeHandle(
    ref,
    () => ({
      toPngDataUrl: () => chart?.getDataURL({ type: 'png', pixelRatio: IMAGE_PIXEL_RATIO, backgroundColor: '#fff' }) ?? null,
    }),
    [chart],
  );

  useEffect(() => {
    const element = containerRef.current;
    if (!element || !chartsCanRender()) return undefined;
    let disposed = false;
    let instance: ECharts | null = null;
    let observer: ResizeObserver | null = null;
    const draw = ({ echarts }: typeof import('./spending-echarts')) => {
      if (disposed) return;
      instance = echarts.init(element, undefined, { renderer: 'canvas' });
      const drawn = instance;
      // Clicks anywhere over a column count, not only on the (small) line symbols.
      drawn.getZr().on('click', (event: { offsetX: number; offsetY: number }) => {
        const pixel = [event.offsetX, event.offsetY];
        if (!drawn.containPixel('grid', pixel)) return;
        const [index] = drawn.convertFromPixel({ xAxisIndex: 0 }, pixel);
        if (Number.isInteger(index) && index >= 0) clickRef.current(index);
      });
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => drawn.resize());
        observer.observe(element);
      }
      setChart(drawn);
    };
    import('./spending-echarts').then(draw, (error: unknown) => {
      console.error('Could not load the chart', error);
      if (!disposed) setState('failed');
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      instance?.dispose();
      setChart(null);
      drawnRef.current?.(false);
    };
  }, []);

  // Keyed on the content, so a re-render with equal new arrays does not restart the animation.
  const stable = useStableValue(data);
  const option = useMemo(() => buildSpendingChartOption(stable), [stable]);

  useEffect(() => {
    if (!chart) return;
    try {
      chart.setOption(option, { notMerge: true });
      setState('drawn');
      drawnRef.current?.(true);
    } catch (error) {
      console.error('Could not draw the chart', error);
      setState('failed');
      drawnRef.current?.(false);
    }
  }, [chart, option]);

  useEffect(() => {
    chart?.resize();
  }, [chart, height]);

  const hasBudget = data.budgetLine > 0;
  return (
    <Box data-testid="spending-chart" data-chart-type={data.chartType} sx={{ position: 'relative', width: '100%' }}>
      {state === 'failed' ? <ChartErrorPanel height={height} /> : null}
      {state === 'loading' ? (
        <Box sx={{ position: 'absolute', inset: 0, zIndex: 1, bgcolor: 'background.paper' }}>
          <ChartLoading height={height} />
        </Box>
      ) : null}
      <ChartImage
        ref={containerRef}
        ariaLabel={ariaLabel}
        description={describeSpendingChart(data, `${ariaLabel} data`)}
        sx={{ width: '100%', height, display: state === 'failed' ? 'none' : 'block', cursor: 'pointer' }}
      />
      <Box component="table" sx={visuallyHidden} aria-label={`${ariaLabel} data`}>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">{SPENDING_SERIES}</th>
            {hasBudget ? <th scope="col">{BUDGET_SERIES}</th> : null}
          </tr>
        </thead>
        <tbody>
          {data.points.map((point) => (
            <tr key={point.startDate}>
              <th scope="row">{daysLabel(point)}</th>
              <td>{formatUsd(point.spent)}</td>
              {hasBudget ? <td>{formatUsd(data.budgetLine)}</td> : null}
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
