import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import { Alert, Box, Button, Chip, LinearProgress, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { CostErrorAlert, CurrencyNotice, ExportCsvPageHeader, NoCostData, SingleGroupSelect, TimeRangeSelector, withoutCurrencyWarnings } from '@/components/cost';
import {
  ANALYSIS_PRESETS,
  DEFAULT_PRESET,
  resolveTimeRange,
  useCsvExport,
  type DrillDimension,
  type TimeRange,
} from '@/lib/cost';
import { newFilterId, useFilterStore } from '@/lib/cost-filters';
import { useRunCostQuery } from '../api/post-cost-query';
import { useQueryValueOptions } from '../hooks/use-query-options';
import { costQueryBody } from '../utils/query-request';
import { queryCsv } from '../utils/query-results';
import { FilterBuilder } from './filter-builder';
import { PresetsMenu } from './presets-menu';
import { QueryFilterList } from './query-filter-list';
import { QueryResults } from './query-results';
import { SavePresetDialog } from './save-preset-dialog';

export const COST_QUERY_TITLE = 'Cost Query';
/** The filter store's module (lib/cost-filters/module-config.ts). */
export const COST_QUERY_MODULE = 'cost_query';
export const NOT_RUN_TEXT = 'Add filters, choose the period and grouping, then Run Query.';
export const STALE_TEXT = 'The filters, period or grouping changed since this query ran: Run Query to update the results.';

/**
 * Cost Query (docs/WEB-COST.md "Cost Query (filter builder)") at /cost/query: spec 2 §5's cost
 * filter builder, run over a period and one grouping with POST /v1/query, with saved presets.
 */
export function CostQueryPage() {
  const store = useFilterStore(COST_QUERY_MODULE);
  const [range, setRange] = useState<TimeRange>(() => resolveTimeRange(DEFAULT_PRESET));
  const [groupBy, setGroupBy] = useState<DrillDimension>('service');
  const [saveOpen, setSaveOpen] = useState(false);
  const csvExport = useCsvExport('cost-query');
  const options = useQueryValueOptions(range);
  const run = useRunCostQuery();

  const body = useMemo(() => costQueryBody(store.filters, store.logic, range, groupBy), [store.filters, store.logic, range, groupBy]);
  const answer = run.data;
  const ranBody = run.variables;
  // The grouping of the answer on screen (the select may have changed since).
  const answerGroupBy = ranBody?.group_by ?? groupBy;
  const stale = ranBody !== undefined && JSON.stringify(ranBody) !== JSON.stringify(body);
  const activePreset = store.presets.find((p) => p.id === store.activePresetId) ?? null;
  const warnings = answer ? withoutCurrencyWarnings(answer.warnings, answer) : [];

  const onRun = () => run.mutate(body);
  const onSaveClick = () => {
    // The store answers "No filters to save" for an empty list; there is nothing to name then.
    if (store.filters.length === 0) store.savePreset({ id: newFilterId('preset'), name: '' });
    else setSaveOpen(true);
  };
  const onExport = () => {
    if (answer) csvExport.exportCsv(() => queryCsv(answer, answerGroupBy));
  };

  let results;
  if (run.isPending && !answer) {
    results = (
      <Stack spacing={1} aria-busy="true" aria-label="Loading">
        <Skeleton variant="rounded" height={72} />
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={32} />
        ))}
      </Stack>
    );
  } else if (run.error) {
    results = <CostErrorAlert error={run.error} onRetry={ranBody ? () => run.mutate(ranBody) : undefined} />;
  } else if (!answer) {
    results = (
      <Typography color="text.secondary" role="status">
        {NOT_RUN_TEXT}
      </Typography>
    );
  } else {
    results = (
      <Stack spacing={2}>
        {run.isPending ? <LinearProgress aria-label="Updating" /> : null}
        {stale && !run.isPending ? (
          <Typography variant="body2" color="text.secondary" role="status">
            {STALE_TEXT}
          </Typography>
        ) : null}
        {warnings.length ? <Alert severity="warning">{warnings.join(' · ')}</Alert> : null}
        <CurrencyNotice answer={answer} />
        {answer.data.length === 0 ? (
          <Paper variant="outlined">
            <NoCostData onClearFilters={store.filters.length > 0 ? store.clear : undefined} />
          </Paper>
        ) : (
          <QueryResults answer={answer} groupBy={answerGroupBy} />
        )}
      </Stack>
    );
  }

  return (
    <Box>
      <ExportCsvPageHeader
        title={COST_QUERY_TITLE}
        disabled={!answer || answer.data.length === 0}
        onExport={onExport}
        error={csvExport.error}
        onDismissError={csvExport.clearError}
      />
      <Paper variant="outlined" component="section" aria-labelledby="cost-query-filters" sx={{ p: 2, mb: 2 }}>
        <Stack direction="row" spacing={1.5} useFlexGap flexWrap="wrap" alignItems="center" sx={{ mb: 2 }}>
          <Typography variant="subtitle1" component="h2" id="cost-query-filters" sx={{ flexGrow: 1 }}>
            Filters
          </Typography>
          {activePreset ? <Chip size="small" color="primary" variant="outlined" label={`Preset: ${activePreset.name}`} /> : null}
          <PresetsMenu presets={store.presets} activePresetId={store.activePresetId} onLoad={store.loadPreset} onDelete={store.deletePreset} />
          <Button variant="outlined" startIcon={<SaveOutlinedIcon />} onClick={onSaveClick}>
            Save preset
          </Button>
        </Stack>
        <Stack spacing={2}>
          <FilterBuilder filters={store.filters} logic={store.logic} options={options} onAdd={store.add} error={store.error} />
          <QueryFilterList
            filters={store.filters}
            logic={store.logic}
            accountNames={options.accountNames}
            onLogicChange={store.setLogic}
            onRemove={store.remove}
            onClear={store.clear}
          />
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }} role="toolbar" aria-label="Query options">
        <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" alignItems="center">
          <TimeRangeSelector value={range} presets={ANALYSIS_PRESETS} onChange={setRange} />
          <SingleGroupSelect value={groupBy} onChange={setGroupBy} />
          <Button variant="contained" startIcon={<PlayArrowIcon />} onClick={onRun} disabled={run.isPending}>
            Run Query
          </Button>
        </Stack>
      </Paper>
      {results}
      <SavePresetDialog
        open={saveOpen}
        onClose={() => setSaveOpen(false)}
        onSave={(preset) => {
          store.savePreset({ id: newFilterId('preset'), ...preset });
          setSaveOpen(false);
        }}
      />
    </Box>
  );
}
