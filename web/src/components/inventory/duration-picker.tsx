import { FormControl, FormHelperText, InputLabel, MenuItem, Select } from '@mui/material';
import { useId, useState } from 'react';
import { CustomRangeDialog } from '@/components/cost/custom-range-dialog';
import { MAX_DAYS_BACK } from './constants';
import { DURATION_OPTIONS, customWindow, presetWindow, type DurationPreset, type TimeWindow } from './filters';

export interface DurationPickerProps {
  value: TimeWindow;
  onChange(window: TimeWindow): void;
  now?: Date;
}

export const CLAMPED_MESSAGE = `The inventory reaches ${MAX_DAYS_BACK} days back; the range starts on the earliest day.`;

/** The time-duration picker (spec 1 §2.7): last N days, or a custom range up to 900 days back. */
export function DurationPicker({ value, onChange, now }: DurationPickerProps) {
  const labelId = useId();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [clamped, setClamped] = useState(false);
  const label = (preset: DurationPreset) =>
    preset === 'custom' && value.preset === 'custom'
      ? `${value.startDate} – ${value.endDate}`
      : (DURATION_OPTIONS.find((option) => option.value === preset)?.label ?? preset);

  return (
    <>
      <FormControl size="small" sx={{ minWidth: 190 }}>
        <InputLabel id={labelId}>Time Duration</InputLabel>
        <Select<DurationPreset>
          labelId={labelId}
          label="Time Duration"
          value={value.preset}
          renderValue={label}
          onChange={(event) => {
            const preset = event.target.value as DurationPreset;
            if (preset === 'custom') return;
            setClamped(false);
            onChange(presetWindow(preset, now));
          }}
        >
          {DURATION_OPTIONS.map((option) => (
            <MenuItem
              key={option.value}
              value={option.value}
              onClick={option.value === 'custom' ? () => setDialogOpen(true) : undefined}
            >
              {label(option.value)}
            </MenuItem>
          ))}
        </Select>
        {clamped ? <FormHelperText>{CLAMPED_MESSAGE}</FormHelperText> : null}
      </FormControl>
      <CustomRangeDialog
        open={dialogOpen}
        now={now}
        initial={value.preset === 'custom' ? { startDate: value.startDate, endDate: value.endDate } : undefined}
        onCancel={() => setDialogOpen(false)}
        onApply={(range) => {
          setDialogOpen(false);
          const window = customWindow(range.startDate, range.endDate, now);
          if (!window) return;
          setClamped(window.startDate !== range.startDate);
          onChange(window);
        }}
      />
    </>
  );
}
