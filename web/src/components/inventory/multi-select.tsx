import { FormControl, InputLabel, ListItemText, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import { SelectTick } from '../select-tick';

export const ALL_OPTION = '__all__';

export interface MultiSelectProps {
  label: string;
  options: readonly string[];
  /** Empty = All. */
  value: readonly string[];
  onChange(value: string[]): void;
  optionLabel?: (option: string) => string;
  minWidth?: number;
}

/** Shows at most 2 labels (spec 1 §9), then "+N". */
export function summarise(labels: readonly string[]): string {
  if (labels.length === 0) return 'All';
  if (labels.length <= 2) return labels.join(', ');
  return `${labels.slice(0, 2).join(', ')} +${labels.length - 2}`;
}

/**
 * A multi-select with an All option (spec 1 §2.7): All clears the others; choosing an option
 * while All is on starts a list with it.
 */
export function MultiSelect({ label, options, value, onChange, optionLabel = (o) => o, minWidth = 180 }: MultiSelectProps) {
  const labelId = useId();
  const all = value.length === 0;
  return (
    <FormControl size="small" sx={{ minWidth, maxWidth: 280 }}>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select<string[]>
        multiple
        labelId={labelId}
        label={label}
        value={all ? [ALL_OPTION] : [...value]}
        renderValue={() => summarise(value.map(optionLabel))}
        onChange={(event) => {
          const next = typeof event.target.value === 'string' ? event.target.value.split(',') : event.target.value;
          const clickedAll = next.includes(ALL_OPTION) && !all;
          if (clickedAll) onChange([]);
          else onChange(next.filter((option) => option !== ALL_OPTION));
        }}
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 320 } } } }}
      >
        <MenuItem value={ALL_OPTION}>
          <SelectTick checked={all} />
          <ListItemText primary="All" />
        </MenuItem>
        {options.map((option) => (
          <MenuItem key={option} value={option}>
            <SelectTick checked={value.includes(option)} />
            <ListItemText primary={optionLabel(option)} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
