import { Autocomplete, TextField } from '@mui/material';
import { DROPDOWN_MAX_HEIGHT, MAX_FILTER_VALUE_LENGTH } from '@/lib/cost-filters';

export interface TagKeyInputProps {
  value: string;
  options: string[];
  onChange(tagKey: string): void;
}

/** The tag key of a tag condition: one of the provider's keys, or typed in (spec 1 §8). */
export function TagKeyInput({ value, options, onChange }: TagKeyInputProps) {
  return (
    <Autocomplete
      freeSolo
      autoSelect
      size="small"
      options={options}
      value={value || null}
      onChange={(_event, next) => onChange((next ?? '').trim())}
      slotProps={{ listbox: { style: { maxHeight: DROPDOWN_MAX_HEIGHT } } }}
      renderInput={(params) => (
        <TextField {...params} label="Tag key" slotProps={{ htmlInput: { ...params.inputProps, maxLength: MAX_FILTER_VALUE_LENGTH } }} />
      )}
      sx={{ flex: 1, minWidth: 140 }}
    />
  );
}
