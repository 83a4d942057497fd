import RefreshIcon from '@mui/icons-material/Refresh';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import { Alert, Box, Button, Stack } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { CurrencyNotice, preloadCostChart, withoutCurrencyWarnings } from '@/components/cost';
import { AppliedFilterChips, FilterPanel } from '@/components/cost-filters';
import { CSV_EXPORT_FAILED_MESSAGE, downloadFile, resolveTimeRange } from '@/lib/cost';
import { PageHeader } from '@/components/page-header';
import { useAnalysisData } from '../hooks/use-analysis-data';
import { useAnalysisState } from '../hooks/use-analysis-state';
import { useSavedReports } from '../hooks/use-saved-reports';
import { useThrottledAction } from '../hooks/use-throttled-action';
import { JSON_EXPORT_FAILED_MESSAGE, exportCsv, exportFileName, exportJson, exportTable } from '../utils/export';
import { activeDrillPath, drillInto, drillValueOfLabel, stepBack } from '../utils/drill-state';
import { deleteReport, saveReport } from '../utils/saved-reports';
import { AnalysisResults } from './analysis-results';
import { AnalysisToolbar } from './analysis-toolbar';
import { DataReadyNotice } from './data-ready-notice';
import { DrillBreadcrumb } from './drill-breadcrumb';
import { ExportMenu } from './export-menu';
import { SaveReportDialog } from './save-report-dialog';
import { SavedReportsMenu } from './saved-reports-menu';

/** §9: the Refresh button asks again at most once every 3000 ms. */
export const REFRESH_THROTTLE_MS = 3_000;
/** §9 "Toast auto close 5000 ms": a success notice (e.g. "Report … saved.") closes by itself. */
export const NOTICE_AUTO_CLOSE_MS = 5_000;

export interface AdvancedCostPageProps {
  /** Inside the Cost Analysis tabs: no page title of its own. */
  embedded?: boolean;
}

/** Advanced cost analysis (spec 1 §2.5) at /cost/advanced. */
export function AdvancedCostPage({ embedded = false }: AdvancedCostPageProps) {
  const { state, setState, openReport, openedReport, reportError, dismissReportError } = useAnalysisState();
  const range = useMemo(() => resolveTimeRange(state.period.preset, state.period), [state.period]);
  const data = useAnalysisData(state, range);
  const reports = useSavedReports();
  const refresh = useThrottledAction(data.refetch, REFRESH_THROTTLE_MS);
  const warnings = withoutCurrencyWarnings(data.warnings, data.series);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  // Fetch the chart library while the first answer is on its way, not after it arrived: the
  // chart is drawn up to ~250 ms sooner.
  useEffect(preloadCostChart, []);

  // Drill-down (docs/ANALYST-FLOW.md): crumbs whose conditions were edited away are dropped.
  const drillPath = useMemo(() => activeDrillPath(state), [state]);
  const onDrill = (source: 'chart' | 'table', label: string) => {
    const dimension = source === 'chart' ? data.chartPrimary : data.shownDimensions[0];
    if (!dimension) return;
    const value = drillValueOfLabel(label, dimension, data.series?.data);
    if (value !== null) setState(drillInto(state, dimension, value));
  };

  useEffect(() => {
    if (!notice) return undefined;
    const timer = setTimeout(() => setNotice(null), NOTICE_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const onExport = (format: 'csv' | 'json') => {
    try {
      const table = exportTable(data.groupRows, data.periodRows, data.shownDimensions, data.shownView === 'cumulative');
      if (format === 'csv') downloadFile(exportFileName('csv'), exportCsv(table), 'text/csv;charset=utf-8');
      else downloadFile(exportFileName('json'), exportJson(table, state, range, data.series?.summary), 'application/json');
      setExportError(null);
    } catch (error) {
      console.error('Cost analysis export failed', error);
      setExportError(format === 'csv' ? CSV_EXPORT_FAILED_MESSAGE : JSON_EXPORT_FAILED_MESSAGE);
    }
  };

  const actions = (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
      <Button variant="outlined" startIcon={<RefreshIcon />} onClick={refresh.run} disabled={refresh.cooling}>
        Refresh
      </Button>
      <SavedReportsMenu reports={reports} onOpen={openReport} onDelete={deleteReport} />
      <Button variant="outlined" startIcon={<SaveOutlinedIcon />} onClick={() => setSaveOpen(true)}>
        Save Report
      </Button>
      <ExportMenu disabled={!data.groupRows && !data.periodRows} onExport={onExport} />
    </Stack>
  );

  return (
    <Box>
      {embedded ? (
        <Stack direction="row" justifyContent="flex-end" sx={{ mb: 2 }}>
          {actions}
        </Stack>
      ) : (
        <PageHeader title="Advanced Cost" actions={actions} />
      )}
      {reportError ? (
        <Alert severity="error" onClose={dismissReportError} sx={{ mb: 2 }}>
          {reportError}
        </Alert>
      ) : null}
      {openedReport ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Showing the saved report “{openedReport.name}”.
        </Alert>
      ) : null}
      {notice ? (
        <Alert severity="success" onClose={() => setNotice(null)} sx={{ mb: 2 }}>
          {notice}
        </Alert>
      ) : null}
      {exportError ? (
        <Alert severity="error" onClose={() => setExportError(null)} sx={{ mb: 2 }}>
          {exportError}
        </Alert>
      ) : null}
      <DataReadyNotice />
      <AnalysisToolbar state={state} range={range} onChange={setState} onOpenFilters={() => setFiltersOpen(true)} />
      <DrillBreadcrumb path={drillPath} onStepBack={(keep) => setState(stepBack(state, keep))} />
      {state.filters.length ? (
        <Box sx={{ mb: 2 }}>
          <AppliedFilterChips filters={state.filters} onClick={() => setFiltersOpen(true)} />
        </Box>
      ) : null}
      {warnings.length ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {warnings.join(' · ')}
        </Alert>
      ) : null}
      <CurrencyNotice answer={data.series} />
      <AnalysisResults
        data={data}
        state={state}
        range={range}
        onRefresh={refresh.run}
        onClearFilters={() => setState({ ...state, filters: [] })}
        onSortChange={(sortConfig) => setState({ ...state, grouping: { ...state.grouping, sortConfig } })}
        onDrill={onDrill}
      />
      <FilterPanel
        open={filtersOpen}
        module="cost_analysis"
        applied={state.filters}
        timeRange={range}
        onClose={() => setFiltersOpen(false)}
        onApply={(filters) => setState({ ...state, filters })}
        onIncludeChargeType={(chargeType) => setState({ ...state, inclusions: { ...state.inclusions, [chargeType]: true } })}
      />
      <SaveReportDialog
        open={saveOpen}
        onCancel={() => setSaveOpen(false)}
        onSave={(input) => {
          const report = saveReport(input, state);
          setSaveOpen(false);
          setNotice(`Report “${report.name}” saved.`);
        }}
      />
    </Box>
  );
}
