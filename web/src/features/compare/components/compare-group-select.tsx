import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import type { DrillDimension } from '@/lib/cost';
import { COMPARE_GROUP_OPTIONS } from '../utils/compare-state';

export interface CompareGroupSelectProps {
  value: DrillDimension;
  onChange(dimension: DrillDimension): void;
}

/** Group By with one dimension: the rows of the comparison. */
export function CompareGroupSelect({ value, onChange }: CompareGroupSelectProps) {
  const labelId = useId();
  return (
    <FormControl size="small" sx={{ minWidth: 180 }}>
      <InputLabel id={labelId}>Group By</InputLabel>
      <Select<DrillDimension> labelId={labelId} label="Group By" value={value} onChange={(event) => onChange(event.target.value as DrillDimension)}>
        {COMPARE_GROUP_OPTIONS.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
