import { Paper, Stack } from '@mui/material';
import { useState } from 'react';
import { InclusionsSelect, TimeRangeSelector } from '@/components/cost';
import { FiltersButton } from '@/components/cost-filters';
import { ADVANCED_COST_PRESETS, type TimeRange } from '@/lib/cost';
import { useReportedChargeTypes } from '@/lib/cost-filters';
import type { AnalysisState } from '../types';
import { withDimensions } from '../utils/analysis-state';
import { GroupBySelect } from './group-by-select';
import { QuickGroupBy } from './quick-group-by';
import { ViewSelect } from './view-select';

export interface AnalysisToolbarProps {
  state: AnalysisState;
  range: TimeRange;
  onChange(next: AnalysisState): void;
  onOpenFilters(): void;
}

/** §2.5 toolbar: Filters, Group By (and Quick group by beside it), View, Period, Include. */
export function AnalysisToolbar({ state, range, onChange, onOpenFilters }: AnalysisToolbarProps) {
  const [includeOpened, setIncludeOpened] = useState(false);
  const reportedChargeTypes = useReportedChargeTypes(range, includeOpened);
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} role="toolbar" aria-label="Cost analysis options">
      <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" alignItems="center">
        <FiltersButton count={state.filters.length} onClick={onOpenFilters} />
        <GroupBySelect
          value={state.grouping.groupByDimensions}
          onChange={(dimensions) => onChange({ ...state, grouping: withDimensions(state.grouping, dimensions) })}
        />
        {/* One dimension alone; filters and the drill path stay (a step back regroups as before). */}
        <QuickGroupBy
          value={state.grouping.groupByDimensions}
          onChoose={(dimension) => onChange({ ...state, grouping: withDimensions(state.grouping, [dimension]) })}
        />
        <ViewSelect value={state.viewType} onChange={(viewType) => onChange({ ...state, viewType })} />
        <TimeRangeSelector
          value={range}
          presets={ADVANCED_COST_PRESETS}
          onChange={(next) =>
            onChange({
              ...state,
              period:
                next.preset === 'custom' ? { preset: 'custom', startDate: next.startDate, endDate: next.endDate } : { preset: next.preset },
            })
          }
        />
        <InclusionsSelect
          value={state.inclusions}
          reported={reportedChargeTypes}
          onOpen={() => setIncludeOpened(true)}
          onChange={(inclusions) => onChange({ ...state, inclusions })}
        />
      </Stack>
    </Paper>
  );
}
