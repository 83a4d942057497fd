import { Autocomplete, Box, TextField } from '@mui/material';
import { DROPDOWN_MAX_HEIGHT, MAX_FILTER_VALUE_LENGTH, MULTI_SELECT_MAX_CHIPS, splitTypedValues } from '@/lib/cost-filters';

export interface ValuesInputProps {
  label: string;
  value: string[];
  options: string[];
  /** Names shown next to option ids (account names). */
  optionNames?: Record<string, string>;
  onChange(value: string[]): void;
}

/** Typed values are split at commas, trimmed, empties dropped (spec 1 §5); duplicates kept once. */
function normalise(values: string[]): string[] {
  const out: string[] = [];
  for (const v of values.flatMap(splitTypedValues)) if (!out.includes(v)) out.push(v);
  return out;
}

/** A multi-select of the loaded options that also takes typed values (spec 1 §2.12, §9 chips). */
export function ValuesInput({ label, value, options, optionNames, onChange }: ValuesInputProps) {
  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      size="small"
      limitTags={MULTI_SELECT_MAX_CHIPS}
      options={options}
      value={value}
      onChange={(_event, next) => onChange(normalise(next))}
      slotProps={{ listbox: { style: { maxHeight: DROPDOWN_MAX_HEIGHT } } }}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props}>
          {optionNames?.[option] ? `${optionNames[option]} (${option})` : option}
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          slotProps={{ htmlInput: { ...params.inputProps, maxLength: MAX_FILTER_VALUE_LENGTH } }}
        />
      )}
      sx={{ flex: 2, minWidth: 200 }}
    />
  );
}
