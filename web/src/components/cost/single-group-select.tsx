import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import { DIMENSION_OPTIONS, type DrillDimension } from '@/lib/cost';

export interface SingleGroupSelectProps {
  value: DrillDimension;
  onChange(dimension: DrillDimension): void;
}

/** Group By with one dimension (no Ungrouped): the rows of a Compare or Cost Query answer. */
export function SingleGroupSelect({ value, onChange }: SingleGroupSelectProps) {
  const labelId = useId();
  return (
    <FormControl size="small" sx={{ minWidth: 180 }}>
      <InputLabel id={labelId}>Group By</InputLabel>
      <Select<DrillDimension> labelId={labelId} label="Group By" value={value} onChange={(event) => onChange(event.target.value as DrillDimension)}>
        {DIMENSION_OPTIONS.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
