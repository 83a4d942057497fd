import { Box, CircularProgress, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { CostErrorAlert, NoCostData, WidgetBoundary } from '@/components/cost';
import { COST_FETCH_FAILED_MESSAGE, formatRangeLabel, type TimeRange } from '@/lib/cost';
import type { AnalysisData } from '../hooks/use-analysis-data';
import type { AnalysisState } from '../types';
import { AnalysisChart } from './analysis-chart';
import { GroupTable, PeriodTable } from './analysis-table';
import { CostSummary } from './cost-summary';

export interface AnalysisResultsProps {
  data: AnalysisData;
  state: AnalysisState;
  range: TimeRange;
  onRefresh(): void;
  onClearFilters(): void;
  onSortChange(sort: AnalysisState['grouping']['sortConfig']): void;
  /** Drill into a value of the chart's group (chart) or the table's first dimension (table). */
  onDrill?(source: 'chart' | 'table', label: string): void;
}

/** The summary, the chart and the table, with the §8 loading, empty and error states. */
export function AnalysisResults({ data, state, range, onRefresh, onClearFilters, onSortChange, onDrill }: AnalysisResultsProps) {
  if (data.error && !data.series) {
    return <CostErrorAlert error={data.error} fallback={COST_FETCH_FAILED_MESSAGE} onRetry={onRefresh} />;
  }
  if (data.isLoading || !data.series || !data.chart) {
    return (
      <Stack alignItems="center" sx={{ py: 6 }}>
        <CircularProgress aria-label="Loading cost data" />
      </Stack>
    );
  }
  const empty = data.series.data.length === 0;
  return (
    <Stack spacing={2}>
      {data.error ? <CostErrorAlert error={data.error} fallback={COST_FETCH_FAILED_MESSAGE} onRetry={onRefresh} /> : null}
      <Paper variant="outlined" sx={{ p: 2, position: 'relative' }}>
        {data.isUpdating ? (
          <LinearProgress aria-label="Updating cost data" sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />
        ) : null}
        <CostSummary summary={data.series.summary} currency={data.series.currency} periodLabel={formatRangeLabel(range)} />
        <Box sx={{ mt: 2 }}>
          {empty ? (
            <NoCostData onRefresh={onRefresh} onClearFilters={state.filters.length ? onClearFilters : undefined} />
          ) : (
            <WidgetBoundary component="cost chart" resetKey={data.chart}>
              <AnalysisChart
                data={data.chart}
                view={data.shownView}
                primary={data.chartPrimary}
                totalGroups={data.series.total_groups}
                currency={data.series.currency}
                onDrill={onDrill ? (label) => onDrill('chart', label) : undefined}
              />
            </WidgetBoundary>
          )}
        </Box>
      </Paper>
      {empty ? null : (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {state.grouping.groupByDimensions.length ? 'Cost by group' : 'Cost by period'}
          </Typography>
          <WidgetBoundary component="cost table" resetKey={data.groupRows ?? data.periodRows}>
            {data.groupRows ? (
              <GroupTable
                rows={data.groupRows}
                dimensions={data.shownDimensions}
                sort={state.grouping.sortConfig}
                onSortChange={onSortChange}
                currency={data.series.currency}
                onDrill={onDrill ? (label) => onDrill('table', label) : undefined}
              />
            ) : data.periodRows ? (
              <PeriodTable rows={data.periodRows} cumulative={data.shownView === 'cumulative'} currency={data.series.currency} />
            ) : (
              <Stack alignItems="center" sx={{ py: 3 }}>
                <CircularProgress size={24} aria-label="Loading cost table" />
              </Stack>
            )}
          </WidgetBoundary>
        </Paper>
      )}
    </Stack>
  );
}
