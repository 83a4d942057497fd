import { useCallback, useMemo, useRef } from 'react';
import {
  COST_REFETCH_DEBOUNCE_MS,
  toApiDate,
  useCostAggr,
  useDebouncedValue,
  useStableValue,
  type CostAggrRequest,
  type CostAggrResponse,
  type GroupKey,
  type TimeRange,
} from '@/lib/cost';
import type { AnalysisState, ViewType } from '../types';
import { isViewType } from '../utils/analysis-state';
import { buildAnalysisRequests } from '../utils/build-request';
import { buildChartData, type ChartData } from '../utils/chart-data';
import { groupTableRows, periodTableRows, type Capped, type GroupTableRow, type PeriodTableRow } from '../utils/table-rows';

type Dimension = Exclude<GroupKey, 'none'>;

/** A request sent 1000 ms after its last change (§9), and the request the shown answer came from. */
function useDebouncedAggr(body: CostAggrRequest | null) {
  const stable = useStableValue(body);
  const debounced = useDebouncedValue(stable, COST_REFETCH_DEBOUNCE_MS);
  const query = useCostAggr(debounced);
  const answered = useRef<{ body: CostAggrRequest; data: CostAggrResponse } | null>(null);
  if (debounced && query.data && !query.isPlaceholderData) answered.current = { body: debounced, data: query.data };
  if (!debounced) answered.current = null;
  return { query, answered: answered.current, pending: stable !== null && (stable !== debounced || query.isFetching) };
}

function dimensionsOf(body: CostAggrRequest): Dimension[] {
  const dims = body.group_by_dimensions;
  const list = Array.isArray(dims) ? dims : typeof dims === 'string' ? [dims] : [];
  return list.filter((d): d is Dimension => d !== 'none');
}

export interface AnalysisData {
  /** The answer of the chart's request (its summary is the period's total). */
  series: CostAggrResponse | undefined;
  chart: ChartData | null;
  /** The view and dimensions of what is shown (they lag the toolbar while a new answer loads). */
  shownView: ViewType;
  shownDimensions: Dimension[];
  /** The chart's group (the primary dimension of its answer), none when ungrouped. */
  chartPrimary: Dimension | undefined;
  groupRows: Capped<GroupTableRow> | null;
  periodRows: Capped<PeriodTableRow> | null;
  warnings: string[];
  isLoading: boolean;
  isUpdating: boolean;
  error: Error | null;
  refetch(): void;
}

/** The screen's two cost calls (chart and table), debounced, and what they show. */
export function useAnalysisData(state: AnalysisState, range: TimeRange): AnalysisData {
  const requests = useMemo(() => buildAnalysisRequests(state, range), [state, range]);
  const series = useDebouncedAggr(requests.series);
  const table = useDebouncedAggr(requests.table);

  const shown = series.answered;
  const shownView: ViewType = shown && isViewType(shown.body.view_type) ? shown.body.view_type : state.viewType;
  const seriesDims = shown ? dimensionsOf(shown.body) : [];
  const tableAnswer = table.answered;
  const shownDimensions = tableAnswer ? dimensionsOf(tableAnswer.body) : [];

  const chart = useMemo(
    () => (shown ? buildChartData(shown.data.data, shownView, toApiDate(shown.body.start_time ?? range.start), seriesDims[0]) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- derived from the answered request
    [shown?.data, shown?.body],
  );
  const total = shown?.data.summary.accrued_cost ?? 0;
  const groupRows = useMemo(
    () =>
      tableAnswer && requests.table
        ? groupTableRows(tableAnswer.data.data, shownDimensions, tableAnswer.data.summary.accrued_cost, tableAnswer.data.total_groups)
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- derived from the answered request
    [tableAnswer?.data, tableAnswer?.body, requests.table === null],
  );
  const periodRows = useMemo(
    () => (chart && seriesDims.length === 0 ? periodTableRows(chart, shownView, total) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- derived from the chart
    [chart, total],
  );

  const warnings = useMemo(
    () => [...new Set([...requests.warnings, ...(shown?.data.warnings ?? []), ...(tableAnswer?.data.warnings ?? [])])],
    [requests.warnings, shown?.data.warnings, tableAnswer?.data.warnings],
  );

  const { refetch: refetchSeries } = series.query;
  const { refetch: refetchTable } = table.query;
  const hasTable = requests.table !== null;
  const refetch = useCallback(() => {
    void refetchSeries();
    if (hasTable) void refetchTable();
  }, [refetchSeries, refetchTable, hasTable]);

  const error = series.query.error ?? (hasTable ? table.query.error : null) ?? null;
  return {
    series: shown?.data,
    chart,
    shownView,
    shownDimensions,
    chartPrimary: seriesDims[0],
    groupRows: hasTable ? groupRows : null,
    periodRows,
    warnings,
    isLoading: !shown && !error,
    isUpdating: series.pending || (hasTable && table.pending),
    error,
    refetch,
  };
}
