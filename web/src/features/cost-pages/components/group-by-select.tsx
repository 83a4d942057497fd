import { MenuItem, TextField } from '@mui/material';
import { GROUP_BY_OPTIONS, type GroupKey } from '@/lib/cost';

/** One Group By dimension (or Ungrouped). */
export function GroupBySelect({ value, onChange }: { value: GroupKey; onChange: (value: GroupKey) => void }) {
  return (
    <TextField select size="small" label="Group By" value={value} onChange={(event) => onChange(event.target.value as GroupKey)} sx={{ minWidth: 170 }}>
      {GROUP_BY_OPTIONS.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
