import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useBudgetHistory } from '../../api';
import {
  alertMarkers,
  budgetLineAmount,
  currentPeriodBand,
  forecastContinuation,
  hasNoSpending,
  trendCsvTable,
  trendPoints,
  type TrendDataType,
  type TrendPoint,
} from '../../model/trend';
import type { Budget } from '../../model/types';
import { budgetFileName, downloadBudgetCsv, downloadDataUrl } from './budget-downloads';
import { useResponsiveChartHeight } from './chart-height';
import { ChartLoading, ChartNoData, SpendingLoadFailed } from './chart-states';
import { daysLabel } from './point-label';
import { SpendingChart, type SpendingChartHandle } from './spending-chart';
import type { SpendingChartData, TrendChartType } from './spending-chart-option';
import { SpendingDownloadMenu } from './spending-download-menu';
import type { SpendingRange } from './spending-range';
import { SpendingRangeSelector } from './spending-range-selector';
import { ChartTypeButtons, DataTypeButtons } from './trend-view-buttons';

export interface SpendingTrendPanelProps {
  budget: Budget;
  range: SpendingRange;
  onRangeChange(range: SpendingRange): void;
  dataType: TrendDataType;
  onDataTypeChange(dataType: TrendDataType): void;
  /** The clicked point whose resources the table shows, if any. */
  selected: TrendPoint | null;
  onSelect(point: TrendPoint | null): void;
}

/** The chart's data for the budget's history at the chosen resolution. */
function useTrendChartData(budget: Budget, items: ReadonlyArray<{ date: string; amountSpent: number }>, dataType: TrendDataType, chartType: TrendChartType) {
  return useMemo((): SpendingChartData => {
    const points = trendPoints(items, dataType, budget.period);
    return {
      points,
      chartType,
      dataType,
      budgetLine: budgetLineAmount(budget.amount, budget.period, dataType),
      // Thresholds are shares of the whole period's amount: only cumulative points can meet them.
      markers: dataType === 'cumulative' ? alertMarkers(points, budget.alerts, budget.amount, budget.period) : [],
      band: currentPeriodBand(points, budget.periodStart, budget.periodEnd),
      // The forecast is a period total: like the thresholds, only the running total leads to it.
      forecast:
        dataType === 'cumulative'
          ? forecastContinuation(points, budget.periodStart, budget.periodEnd, budget.forecast?.amount)
          : null,
    };
  }, [items, dataType, chartType, budget.period, budget.amount, budget.alerts, budget.periodStart, budget.periodEnd, budget.forecast]);
}

/**
 * Spending Trend (spec 2 §2): the date range, data type and chart type, the download menu and the
 * chart of the budget's spend; clicking a point picks the days whose resources the table shows.
 */
export function SpendingTrendPanel({ budget, range, onRangeChange, dataType, onDataTypeChange, selected, onSelect }: SpendingTrendPanelProps) {
  const headingId = useId();
  const [chartType, setChartType] = useState<TrendChartType>('line');
  const [chartDrawn, setChartDrawn] = useState(false);
  const chartRef = useRef<SpendingChartHandle>(null);
  const height = useResponsiveChartHeight();
  const history = useBudgetHistory(budget.id, { startDate: range.startDate, endDate: range.endDate });
  const items = useMemo(() => history.data ?? [], [history.data]);
  const chartData = useTrendChartData(budget, items, dataType, chartType);
  const empty = hasNoSpending(items);

  const downloadCsv = () =>
    downloadBudgetCsv(budgetFileName('spending', budget.name, dataType, 'csv'), trendCsvTable(chartData.points, dataType, chartData.budgetLine));
  const downloadImage = () => {
    const image = chartRef.current?.toPngDataUrl();
    if (image) downloadDataUrl(budgetFileName('spending', budget.name, dataType, 'png'), image);
  };

  let body: ReactNode;
  if (history.isPending) body = <ChartLoading height={height} />;
  else if (history.isError) body = <SpendingLoadFailed error={history.error} />;
  else if (empty) body = <ChartNoData height={height} />;
  else
    body = (
      <SpendingChart
        ref={chartRef}
        data={chartData}
        height={height}
        ariaLabel="Spending trend chart"
        onDrawnChange={setChartDrawn}
        onPointClick={(index) => {
          const point = chartData.points[index];
          if (point) onSelect(point);
        }}
      />
    );

  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 } }}>
      <Stack spacing={2}>
        <Stack direction="row" justifyContent="space-between" alignItems="center" spacing={2}>
          <Typography id={headingId} variant="h6" component="h2">
            Spending Trend
          </Typography>
          <SpendingDownloadMenu
            disabled={history.isPending || history.isError || empty}
            imageDisabled={!chartDrawn}
            onDownloadCsv={downloadCsv}
            onDownloadImage={downloadImage}
          />
        </Stack>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'flex-start' }} flexWrap="wrap" useFlexGap>
          <SpendingRangeSelector value={range} onChange={onRangeChange} />
          <DataTypeButtons value={dataType} onChange={onDataTypeChange} />
          <ChartTypeButtons value={chartType} onChange={setChartType} />
        </Stack>
        <Box>{body}</Box>
        {selected ? (
          <Stack direction="row" spacing={1} alignItems="center" role="status">
            <Typography variant="body2">
              Resources for <strong>{daysLabel(selected)}</strong>
            </Typography>
            <Button size="small" onClick={() => onSelect(null)}>
              Clear selected date
            </Button>
          </Stack>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Click a point on the chart to see the resources of that date.
          </Typography>
        )}
      </Stack>
    </Paper>
  );
}
