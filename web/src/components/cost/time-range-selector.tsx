import { FormControl, InputLabel, MenuItem, Select, Typography } from '@mui/material';
import { useId, useState } from 'react';
import {
  ANALYSIS_PRESETS,
  PRESET_LABELS,
  formatRangeLabel,
  resolveTimeRange,
  type PresetOption,
  type TimeRange,
  type TimeRangePreset,
} from '@/lib/cost/time-range';
import { CustomRangeDialog } from './custom-range-dialog';

export const MISSING_ON_CHANGE_MESSAGE = 'TimeRangeSelector: Missing onChange prop';

export interface TimeRangeSelectorProps {
  value: TimeRange;
  onChange?: (range: TimeRange) => void;
  /** Default: the 10 presets of the Advanced cost analysis screen. */
  presets?: ReadonlyArray<PresetOption>;
  /** Default "Period". */
  label?: string;
  /** The current time (tests). */
  now?: Date;
}

/** The period select; "Custom Range" opens the range dialog and then shows the chosen dates. */
export function TimeRangeSelector({ value, onChange, presets = ANALYSIS_PRESETS, label = 'Period', now }: TimeRangeSelectorProps) {
  const labelId = useId();
  const [dialogOpen, setDialogOpen] = useState(false);
  if (!onChange) {
    return (
      <Typography color="error" variant="body2">
        {MISSING_ON_CHANGE_MESSAGE}
      </Typography>
    );
  }

  const optionLabel = (option: PresetOption) =>
    option.value === 'custom' && value.preset === 'custom' ? formatRangeLabel(value) : option.label;
  const known = presets.some((option) => option.value === value.preset);
  const options = known ? presets : [...presets, { value: value.preset, label: PRESET_LABELS[value.preset] ?? value.preset }];

  const choose = (preset: TimeRangePreset) => {
    if (preset === 'custom') {
      setDialogOpen(true);
      return;
    }
    if (preset !== value.preset) onChange(resolveTimeRange(preset, undefined, now));
  };

  return (
    <>
      <FormControl size="small" sx={{ minWidth: 200 }}>
        <InputLabel id={labelId}>{label}</InputLabel>
        <Select<TimeRangePreset>
          labelId={labelId}
          label={label}
          value={value.preset}
          renderValue={(preset) => optionLabel(options.find((option) => option.value === preset) ?? { value: preset, label: preset })}
          // Custom Range is handled by its item's click, so that choosing it again reopens the dialog.
          onChange={(event) => {
            if (event.target.value !== 'custom') choose(event.target.value as TimeRangePreset);
          }}
        >
          {options.map((option) => (
            <MenuItem
              key={option.value}
              value={option.value}
              onClick={option.value === 'custom' ? () => choose('custom') : undefined}
            >
              {optionLabel(option)}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <CustomRangeDialog
        open={dialogOpen}
        now={now}
        initial={value.preset === 'custom' ? { startDate: value.startDate, endDate: value.endDate } : undefined}
        onCancel={() => setDialogOpen(false)}
        onApply={(range) => {
          setDialogOpen(false);
          onChange(resolveTimeRange('custom', range, now));
        }}
      />
    </>
  );
}
