import { Alert, Box } from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ECharts } from 'echarts/core';
import { formatChartAmount } from '@/lib/cost/format';
import { useStableValue } from '@/lib/cost/storage';
import { ChartImage } from './chart-image';
import { categoriesAreDays, categoryLabel, describeChart } from './chart-description';
import { buildChartOption, seriesTotal, type CostChartData } from './chart-option';
import { chartsCanRender } from './chart-loader';
import { DEFAULT_CHART_PALETTE } from './palettes';

/** Hidden on screen, still read by screen readers (and Testing Library). */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/** §8: the chart's code could not be loaded (e.g. the network dropped). */
export const CHART_LOAD_ERROR_MESSAGE = 'An error occurred while loading the chart';

export interface CostChartProps extends CostChartData {
  /** Pixels or any CSS height (default 360). */
  height?: number | string;
  /** The chart's accessible name (also names its data table). */
  ariaLabel?: string;
  /** A click on a point, bar or slice: its category (empty for pie) and series name. */
  onPointClick?: (category: string, seriesName: string) => void;
  /**
   * A click on a bar segment, a point, a pie slice or a legend entry: the name of its series (or
   * slice). With it, a legend click selects instead of hiding the series, and each series name in
   * the data table is a button (shown when it has the keyboard focus) named `selectLabel(name)`.
   */
  onSelect?: (value: string) => void;
  /** The accessible name of a series' button (default "Select {name}"). */
  selectLabel?: (value: string) => string;
  /**
   * The accessible name of a table elsewhere on the page with the chart's figures (e.g. "Cost by
   * date"): the chart's description points to it. Without it the chart carries its own visually
   * hidden table of every figure, named "{ariaLabel} figures".
   */
  figuresTable?: string;
}

/** The data table while a button in it has the keyboard focus: on screen, below the chart. */
const shownOnFocus = {
  '&:focus-within': { clip: 'auto', height: 'auto', margin: 0, overflow: 'visible', position: 'static', whiteSpace: 'normal', width: 'auto' },
} as const;

/**
 * A cost chart (line, area, bar or pie; stacked; zoom slider; scrolling legend; one of the §9
 * colour palettes, 'default' unless `palette` says otherwise), drawn with
 * ECharts loaded on first use. Its text alternative: the drawing is an image named `ariaLabel`
 * and described by what it draws (type, days, series) and where its figures are; next to it are
 * visually hidden tables of each series' total ("{ariaLabel} data") and, unless `figuresTable`
 * names the page's own table, of every figure ("{ariaLabel} figures").
 */
export function CostChart({
  height = 360,
  ariaLabel = 'Cost chart',
  onPointClick,
  onSelect,
  selectLabel = (value) => `Select ${value}`,
  figuresTable,
  ...data
}: CostChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<ECharts | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const clickRef = useRef(onPointClick);
  clickRef.current = onPointClick;
  const selectRef = useRef(onSelect);
  selectRef.current = onSelect;

  useEffect(() => {
    const element = containerRef.current;
    if (!element || !chartsCanRender()) return undefined;
    let disposed = false;
    let instance: ECharts | null = null;
    let observer: ResizeObserver | null = null;
    const draw = ({ echarts }: typeof import('./echarts-setup')) => {
      if (disposed) return;
      instance = echarts.init(element, undefined, { renderer: 'canvas' });
      instance.on('click', (params) => {
        const event = params as { seriesType?: string; name?: string; seriesName?: string };
        if (event.seriesType === 'pie') clickRef.current?.('', event.name ?? '');
        else clickRef.current?.(event.name ?? '', event.seriesName ?? '');
        const selected = event.seriesType === 'pie' ? event.name : event.seriesName;
        if (selected) selectRef.current?.(selected);
      });
      instance.on('legendselectchanged', (params) => {
        const { name } = params as { name?: string };
        if (!selectRef.current || !name) return;
        // A legend click selects: the series stays shown.
        instance?.dispatchAction({ type: 'legendSelect', name });
        selectRef.current(name);
      });
      observer = new ResizeObserver(() => instance?.resize());
      observer.observe(element);
      setChart(instance);
    };
    import('./echarts-setup').then(draw, (error: unknown) => {
      console.error('Could not load the chart', error);
      if (!disposed) setLoadFailed(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      instance?.dispose();
      setChart(null);
    };
  }, []);

  const { type, categories, series, stacked, zoom, markLines, palette = DEFAULT_CHART_PALETTE, currency } = data;
  // Keyed on the content, so a parent's re-render with equal new arrays does not redraw the chart
  // (which would restart its animation and reset the zoom).
  const stable = useStableValue({ type, categories, series, stacked, zoom, markLines, palette, currency });
  const option = useMemo(() => buildChartOption(stable), [stable]);

  useEffect(() => {
    chart?.setOption(option, { notMerge: true });
  }, [chart, option]);

  const ownFigures = !figuresTable && type !== 'pie' && categories.length > 0;
  const figuresName = `${ariaLabel} figures`;
  const description = describeChart(
    { type, categories, series, stacked },
    { totals: `${ariaLabel} data`, figures: ownFigures ? figuresName : undefined, figuresElsewhere: figuresTable },
  );

  return (
    <Box data-testid="cost-chart" data-chart-type={type} data-palette={palette} sx={{ position: 'relative', width: '100%' }}>
      {loadFailed ? <Alert severity="error">{CHART_LOAD_ERROR_MESSAGE}</Alert> : null}
      <ChartImage
        ref={containerRef}
        ariaLabel={ariaLabel}
        description={description}
        sx={{ width: '100%', height, display: loadFailed ? 'none' : 'block' }}
      />
      <Box component="table" sx={onSelect ? { ...visuallyHidden, ...shownOnFocus } : visuallyHidden} aria-label={`${ariaLabel} data`}>
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {series.map((item) => (
            <tr key={item.name}>
              <th scope="row">
                {onSelect ? (
                  <button type="button" aria-label={selectLabel(item.name)} onClick={() => onSelect(item.name)}>
                    {item.name}
                  </button>
                ) : (
                  item.name
                )}
              </th>
              <td>{formatChartAmount(seriesTotal(item), currency)}</td>
            </tr>
          ))}
        </tbody>
      </Box>
      {ownFigures ? <FiguresTable name={figuresName} categories={categories} series={series} currency={currency} /> : null}
    </Box>
  );
}

/** Every figure of the chart, visually hidden: a row per category (day), a column per series. */
function FiguresTable({ name, categories, series, currency }: Pick<CostChartData, 'categories' | 'series' | 'currency'> & { name: string }) {
  return (
    <Box component="table" sx={visuallyHidden} aria-label={name}>
      <thead>
        <tr>
          <th scope="col">{categoriesAreDays(categories) ? 'Date' : 'Category'}</th>
          {series.map((item) => (
            <th key={item.name} scope="col">
              {item.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {categories.map((category, index) => (
          // Categories may repeat a label (two groups of one name); the index is the point.
          <tr key={index}>
            <th scope="row">{categoryLabel(category)}</th>
            {series.map((item) => (
              <td key={item.name}>{Number.isFinite(item.values[index]) ? formatChartAmount(item.values[index], currency) : '—'}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </Box>
  );
}
