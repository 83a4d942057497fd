import { Checkbox, FormControl, InputLabel, ListItemText, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import { CHARGE_TYPES, chargeTypeLabel, includedChargeTypes, type CostInclusions } from '@/lib/cost';
import { MultiSelectValue } from './multi-select-value';

export interface InclusionsSelectProps {
  value: CostInclusions;
  onChange(inclusions: CostInclusions): void;
}

/** Include (§2.5): the charge types counted; none chosen counts every charge type. */
export function InclusionsSelect({ value, onChange }: InclusionsSelectProps) {
  const labelId = useId();
  const included = includedChargeTypes(value);
  return (
    <FormControl size="small" sx={{ minWidth: 220 }}>
      <InputLabel id={labelId} shrink>
        Include
      </InputLabel>
      <Select<string[]>
        multiple
        displayEmpty
        labelId={labelId}
        label="Include"
        notched
        value={included}
        onChange={(event) => {
          const names = typeof event.target.value === 'string' ? event.target.value.split(',') : event.target.value;
          const next: CostInclusions = Object.fromEntries(Object.keys(value).map((name) => [name, false]));
          for (const { value: name } of CHARGE_TYPES) next[name] = false;
          for (const name of names) next[name] = true;
          onChange(next);
        }}
        renderValue={(names) =>
          names.length ? <MultiSelectValue labels={names.map(chargeTypeLabel)} /> : 'All charge types'
        }
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
      >
        {CHARGE_TYPES.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            <Checkbox checked={included.includes(option.value)} size="small" sx={{ p: 0.5, mr: 1 }} />
            <ListItemText primary={option.label} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
