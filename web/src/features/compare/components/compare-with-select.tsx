import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { useId, useState } from 'react';
import { CustomRangeDialog } from '@/components/cost';
import { formatRangeLabel, resolveTimeRange } from '@/lib/cost';
import type { CompareWith } from '../types';

export const PREVIOUS_PERIOD_LABEL = 'Previous period';
export const CUSTOM_RANGE_LABEL = 'Custom Range';

export interface CompareWithSelectProps {
  value: CompareWith;
  onChange(next: CompareWith): void;
}

/** "Compare with": the previous period (same number of days just before) or a custom range. */
export function CompareWithSelect({ value, onChange }: CompareWithSelectProps) {
  const labelId = useId();
  const [dialogOpen, setDialogOpen] = useState(false);
  const customLabel =
    value.mode === 'custom'
      ? formatRangeLabel(resolveTimeRange('custom', { startDate: value.startDate, endDate: value.endDate }))
      : CUSTOM_RANGE_LABEL;
  return (
    <>
      <FormControl size="small" sx={{ minWidth: 200 }}>
        <InputLabel id={labelId}>Compare with</InputLabel>
        <Select<CompareWith['mode']>
          labelId={labelId}
          label="Compare with"
          value={value.mode}
          renderValue={(mode) => (mode === 'custom' ? customLabel : PREVIOUS_PERIOD_LABEL)}
          // Custom Range is handled by its item's click, so that choosing it again reopens the dialog.
          onChange={(event) => {
            if (event.target.value === 'previous' && value.mode !== 'previous') onChange({ mode: 'previous' });
          }}
        >
          <MenuItem value="previous">{PREVIOUS_PERIOD_LABEL}</MenuItem>
          <MenuItem value="custom" onClick={() => setDialogOpen(true)}>
            {customLabel}
          </MenuItem>
        </Select>
      </FormControl>
      <CustomRangeDialog
        open={dialogOpen}
        initial={value.mode === 'custom' ? { startDate: value.startDate, endDate: value.endDate } : undefined}
        onCancel={() => setDialogOpen(false)}
        onApply={(range) => {
          setDialogOpen(false);
          onChange({ mode: 'custom', startDate: range.startDate, endDate: range.endDate });
        }}
      />
    </>
  );
}
