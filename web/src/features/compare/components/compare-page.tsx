import { Alert, Box, LinearProgress, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  CostChart,
  CostErrorAlert,
  CurrencyNotice,
  ExportCsvPageHeader,
  InclusionsSelect,
  SingleGroupSelect,
  TimeRangeSelector,
  preloadCostChart,
  withoutCurrencyWarnings,
} from '@/components/cost';
import { FilterPanel, FiltersButton } from '@/components/cost-filters';
import {
  ANALYSIS_PRESETS,
  COST_REFETCH_DEBOUNCE_MS,
  comparedWithLabel,
  drillUrl,
  formatComparedRange,
  groupKeyLabel,
  resolveTimeRange,
  useCostCompare,
  useCsvExport,
  type CompareRow,
} from '@/lib/cost';
import { useReportedChargeTypes } from '@/lib/cost-filters';
import { useCompareState } from '../hooks/use-compare-state';
import type { CompareState } from '../types';
import { compareCsv, compareRequest, rowLabel, sortRows, topRows } from '../utils/compare-table';
import { CompareTable } from './compare-table';
import { CompareWithSelect } from './compare-with-select';

export const COMPARE_TITLE = 'Compare';
export const NO_COMPARE_DATA = 'No costs in either period for this selection';
/** How many rows the chart shows (the largest changes). */
export const CHART_ROWS = 10;

/** The Advanced Cost link drilled into one value, over the page's period and charge types. */
export function compareDrillHref(state: CompareState, key: string): string {
  return drillUrl(state.groupBy, key, {
    period: state.period.preset,
    from: state.period.startDate,
    to: state.period.endDate,
    include: state.inclusions,
  });
}

/** Compare (docs/ANALYST-FLOW.md "Compare") at /cost/compare: two periods side by side by one grouping. */
export function ComparePage() {
  const navigate = useNavigate();
  const [state, setState] = useCompareState();
  const range = useMemo(() => resolveTimeRange(state.period.preset, state.period), [state.period]);
  const request = useMemo(() => compareRequest(state, range), [state, range]);
  const query = useCostCompare(request.body, { debounceMs: COST_REFETCH_DEBOUNCE_MS });
  const answer = query.data;
  const rows = useMemo(() => (answer ? sortRows(answer.rows, state.sort) : []), [answer, state.sort]);
  const reportedChargeTypes = useReportedChargeTypes(range);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const csvExport = useCsvExport('cost-compare');

  useEffect(preloadCostChart, []);

  const dimension = state.groupBy;
  const href = (row: Pick<CompareRow, 'key'>) => compareDrillHref(state, row.key);
  const top = answer ? topRows(answer, CHART_ROWS) : [];
  const warnings = [...request.warnings, ...withoutCurrencyWarnings(answer?.warnings ?? [], answer)];

  const onExport = () => {
    if (answer) csvExport.exportCsv(() => compareCsv(answer, rows, dimension));
  };

  let body;
  if (query.error) {
    body = <CostErrorAlert error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!answer) {
    body = (
      <Stack spacing={1} aria-busy="true" aria-label="Loading">
        <Skeleton variant="rounded" height={240} />
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={32} />
        ))}
      </Stack>
    );
  } else {
    body = (
      <Stack spacing={2}>
        {query.isFetching ? <LinearProgress aria-label="Updating" /> : null}
        {answer.rows.length === 0 ? (
          <Typography color="text.secondary" role="status">
            {NO_COMPARE_DATA}
          </Typography>
        ) : (
          <>
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
                Largest changes by {groupKeyLabel(dimension).toLowerCase()}
              </Typography>
              <CostChart
                type="bar"
                ariaLabel={`Previous and current by ${groupKeyLabel(dimension).toLowerCase()}`}
                figuresTable={`Comparison by ${groupKeyLabel(dimension).toLowerCase()}`}
                categories={top.map(rowLabel)}
                series={[
                  { name: `Previous (${formatComparedRange(answer.previous_period)})`, values: top.map((row) => row.previous) },
                  { name: `Current (${formatComparedRange(answer.current_period)})`, values: top.map((row) => row.current) },
                ]}
                currency={answer.currency}
                height={320}
                onPointClick={(category) => {
                  const row = top.find((candidate) => rowLabel(candidate) === category);
                  if (row) navigate(href(row));
                }}
              />
            </Paper>
            <Paper variant="outlined">
              <CompareTable
                answer={answer}
                rows={rows}
                dimension={dimension}
                sort={state.sort}
                onSortChange={(sort) => setState({ ...state, sort })}
                rowHref={href}
              />
            </Paper>
            {answer.total_groups > answer.rows.length ? (
              <Typography variant="caption" color="text.secondary" role="status">
                Showing the {answer.rows.length} largest changes of {answer.total_groups} groups; the totals count every group.
              </Typography>
            ) : null}
          </>
        )}
      </Stack>
    );
  }

  return (
    <Box>
      <ExportCsvPageHeader
        title={COMPARE_TITLE}
        disabled={!answer || answer.rows.length === 0}
        onExport={onExport}
        error={csvExport.error}
        onDismissError={csvExport.clearError}
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }} role="toolbar" aria-label="Compare options">
        <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" alignItems="center">
          <FiltersButton count={state.filters.length} onClick={() => setFiltersOpen(true)} />
          <SingleGroupSelect value={dimension} onChange={(groupBy) => setState({ ...state, groupBy })} />
          <TimeRangeSelector
            value={range}
            presets={ANALYSIS_PRESETS}
            onChange={(next) =>
              setState({
                ...state,
                period:
                  next.preset === 'custom' ? { preset: 'custom', startDate: next.startDate, endDate: next.endDate } : { preset: next.preset },
              })
            }
          />
          <CompareWithSelect value={state.compareWith} onChange={(compareWith) => setState({ ...state, compareWith })} />
          <InclusionsSelect
            value={state.inclusions}
            reported={reportedChargeTypes}
            onChange={(inclusions) => setState({ ...state, inclusions })}
          />
        </Stack>
      </Paper>
      {answer ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="compare-periods">
          {formatComparedRange(answer.current_period)} {comparedWithLabel(answer.previous_period)}
        </Typography>
      ) : null}
      {warnings.length ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {warnings.join(' · ')}
        </Alert>
      ) : null}
      <CurrencyNotice answer={answer} />
      {body}
      <FilterPanel
        open={filtersOpen}
        module="cost_analysis"
        applied={state.filters}
        timeRange={range}
        onClose={() => setFiltersOpen(false)}
        onApply={(filters) => setState({ ...state, filters })}
        onIncludeChargeType={(chargeType) => setState({ ...state, inclusions: { ...state.inclusions, [chargeType]: true } })}
      />
    </Box>
  );
}
