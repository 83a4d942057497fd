import { MenuItem, TextField } from '@mui/material';

export type Aggregation = 'daily' | 'weekly' | 'monthly' | 'cumulative';

export const AGGREGATIONS: ReadonlyArray<{ value: Aggregation; label: string }> = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'cumulative', label: 'Cumulative' },
];

export function AggregationSelect({ value, onChange }: { value: Aggregation; onChange: (value: Aggregation) => void }) {
  return (
    <TextField select size="small" label="Aggregation" value={value} onChange={(event) => onChange(event.target.value as Aggregation)} sx={{ minWidth: 150 }}>
      {AGGREGATIONS.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
