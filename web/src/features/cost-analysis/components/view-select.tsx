import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import type { ViewType } from '../types';
import { VIEW_OPTIONS } from '../utils/analysis-state';

export function ViewSelect({ value, onChange }: { value: ViewType; onChange(view: ViewType): void }) {
  const labelId = useId();
  return (
    <FormControl size="small" sx={{ minWidth: 140 }}>
      <InputLabel id={labelId}>View</InputLabel>
      <Select<ViewType> labelId={labelId} label="View" value={value} onChange={(event) => onChange(event.target.value as ViewType)}>
        {VIEW_OPTIONS.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
