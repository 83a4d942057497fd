import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import { GROUP_BY_OPTIONS, type DrillDimension } from '@/lib/cost';

/** One dimension per query (Ungrouped is the total above the table). */
export const QUERY_GROUP_OPTIONS = GROUP_BY_OPTIONS.filter(
  (option): option is { value: DrillDimension; label: string } => option.value !== 'none',
);

export interface QueryGroupSelectProps {
  value: DrillDimension;
  onChange(dimension: DrillDimension): void;
}

export function QueryGroupSelect({ value, onChange }: QueryGroupSelectProps) {
  const labelId = useId();
  return (
    <FormControl size="small" sx={{ minWidth: 180 }}>
      <InputLabel id={labelId}>Group By</InputLabel>
      <Select<DrillDimension> labelId={labelId} label="Group By" value={value} onChange={(event) => onChange(event.target.value as DrillDimension)}>
        {QUERY_GROUP_OPTIONS.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
