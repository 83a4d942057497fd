import { Alert, Stack } from '@mui/material';
import { useMemo, useState } from 'react';
import { CostChart, DEFAULT_CHART_PALETTE, isChartPaletteName, NoCostData, TimeRangeSelector, type ChartPaletteName } from '@/components/cost';
import { FilterPanel, FiltersButton } from '@/components/cost-filters';
import { PageHeader } from '@/components/page-header';
import { COST_REFETCH_DEBOUNCE_MS, groupKeyLabel, resolveTimeRange, rowDimension, useCostAggr, usePersistentState, type GroupKey, type TimeRange } from '@/lib/cost';
import { buildApiFilterGroups, useAppliedFilters } from '@/lib/cost-filters';
import { visualisationRequest } from '../api/requests';
import { toChartSeries, toCsvTable, toDateRows } from '../utils/date-rows';
import { AggregationSelect, type Aggregation } from './aggregation-select';
import { ChartTypeSwitcher, type ChartType } from './chart-type-switcher';
import { CostWidget } from './cost-widget';
import { DateRowsTable } from './date-rows-table';
import { ExportCsvButton } from './export-csv-button';
import { GroupBySelect } from './group-by-select';
import { PaletteSelect } from './palette-select';
import { TotalHeadline } from './total-headline';

/** Where the chosen chart palette is kept in localStorage. */
const PALETTE_STORAGE_KEY = 'cost_visualisation_palette';

/**
 * /cost/analysis (spec 1 §2.11): total cost with its change, a line/area/bar/pie chart with zoom
 * and a scrolling legend in a chosen palette (kept in localStorage), a table of dates that expand
 * to their groups, and a CSV export.
 */
export function CostVisualisationPage() {
  const [range, setRange] = useState<TimeRange>(() => resolveTimeRange('thisMonth'));
  const [groupBy, setGroupBy] = useState<GroupKey>('service');
  const [aggregation, setAggregation] = useState<Aggregation>('daily');
  const [chartType, setChartType] = useState<ChartType>('line');
  const [storedPalette, setPalette] = usePersistentState<ChartPaletteName>(PALETTE_STORAGE_KEY, DEFAULT_CHART_PALETTE);
  // A value written by hand or by an older version falls back to the default colours.
  const palette = isChartPaletteName(storedPalette) ? storedPalette : DEFAULT_CHART_PALETTE;
  const [panelOpen, setPanelOpen] = useState(false);
  const { filters, setFilters, clear } = useAppliedFilters('cost_analysis');
  const { groups, warnings } = useMemo(() => buildApiFilterGroups(filters), [filters]);
  const costs = useCostAggr(visualisationRequest(range, groupBy, aggregation, groups), { debounceMs: COST_REFETCH_DEBOUNCE_MS });
  const groupLabel = groupBy === 'none' ? null : groupKeyLabel(groupBy);

  return (
    <>
      <PageHeader title="Cost Analysis" subtitle="Cost over time, every charge type (UTC)" />
      <Stack direction="row" spacing={2} alignItems="center" flexWrap="wrap" useFlexGap sx={{ mb: 3 }}>
        <FiltersButton count={filters.length} onClick={() => setPanelOpen(true)} />
        <GroupBySelect value={groupBy} onChange={setGroupBy} />
        <AggregationSelect value={aggregation} onChange={setAggregation} />
        <TimeRangeSelector value={range} onChange={setRange} />
      </Stack>
      <FilterPanel open={panelOpen} onClose={() => setPanelOpen(false)} applied={filters} onApply={setFilters} timeRange={range} module="cost_analysis" />
      {warnings.length > 0 ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {warnings.join(' ')}
        </Alert>
      ) : null}
      <CostWidget
        title="Cost over time"
        queries={[costs]}
        select={() => {
          const rows = toDateRows(costs.data!.data, (row) => rowDimension(row, groupBy));
          return { summary: costs.data!.summary, rows, chart: toChartSeries(rows) };
        }}
        isEmpty={(d) => d.rows.length === 0}
        emptyContent={<NoCostData onRefresh={() => void costs.refetch()} onClearFilters={filters.length > 0 ? clear : undefined} />}
      >
        {(d) => (
          <Stack spacing={3}>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} justifyContent="space-between" alignItems={{ md: 'flex-start' }}>
              <TotalHeadline summary={d.summary} range={range} />
              <Stack direction="row" spacing={2} alignItems="flex-start">
                <ChartTypeSwitcher value={chartType} onChange={setChartType} />
                <PaletteSelect value={palette} onChange={setPalette} />
                <ExportCsvButton table={() => toCsvTable(d.rows, groupLabel)} />
              </Stack>
            </Stack>
            {d.chart.omittedSeries > 0 ? (
              <Alert severity="info">
                The chart shows the {d.chart.series.length.toLocaleString('en-US')} largest groups; {d.chart.omittedSeries.toLocaleString('en-US')}{' '}
                more are left out to stay within 10,000 data points. The table and the export list every group.
              </Alert>
            ) : null}
            <CostChart
              type={chartType}
              categories={d.chart.categories}
              series={chartType === 'pie' && aggregation === 'cumulative' ? d.chart.series.map((s) => ({ name: s.name, values: s.values.slice(-1) })) : d.chart.series}
              stacked={chartType === 'bar' || chartType === 'area'}
              zoom
              palette={palette}
              ariaLabel="Cost chart"
              figuresTable="Cost by date"
            />
            <DateRowsTable key={`${groupBy}-${aggregation}-${range.start}-${range.end}`} rows={d.rows} groupLabel={groupLabel} />
          </Stack>
        )}
      </CostWidget>
    </>
  );
}
