import { Alert, Button, FormControl, InputLabel, MenuItem, Select, Stack, TextField } from '@mui/material';
import { useId, useState } from 'react';
import {
  SPENDING_RANGE_PRESETS,
  quickRange,
  validateSpendingRange,
  type SpendingRange,
  type SpendingRangePreset,
} from './spending-range';

export interface SpendingRangeSelectorProps {
  value: SpendingRange;
  onChange(range: SpendingRange): void;
}

/**
 * The Spending Trend's date range: a quick range applies at once; Custom shows two date inputs
 * and an Apply button, which checks the §5 rules before the range is used.
 */
export function SpendingRangeSelector({ value, onChange }: SpendingRangeSelectorProps) {
  const labelId = useId();
  const [editingCustom, setEditingCustom] = useState(false);
  const [startDate, setStartDate] = useState(value.startDate);
  const [endDate, setEndDate] = useState(value.endDate);
  const [error, setError] = useState<string | null>(null);

  const choose = (preset: SpendingRangePreset) => {
    setError(null);
    if (preset === 'custom') {
      setStartDate(value.startDate);
      setEndDate(value.endDate);
      setEditingCustom(true);
      return;
    }
    setEditingCustom(false);
    onChange(quickRange(preset));
  };

  const apply = () => {
    const broken = validateSpendingRange(startDate, endDate);
    setError(broken);
    if (broken) return;
    setEditingCustom(false);
    onChange({ preset: 'custom', startDate: startDate.trim(), endDate: endDate.trim() });
  };

  const showCustom = editingCustom || value.preset === 'custom';
  return (
    <Stack spacing={1}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
        <FormControl size="small" sx={{ minWidth: 160 }}>
          <InputLabel id={labelId}>Date Range</InputLabel>
          <Select<SpendingRangePreset>
            labelId={labelId}
            label="Date Range"
            value={editingCustom ? 'custom' : value.preset}
            onChange={(event) => choose(event.target.value as SpendingRangePreset)}
          >
            {SPENDING_RANGE_PRESETS.map((preset) => (
              <MenuItem key={preset.value} value={preset.value}>
                {preset.label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        {showCustom ? (
          <>
            <TextField
              size="small"
              type="date"
              label="Start Date"
              value={editingCustom ? startDate : value.startDate}
              onChange={(event) => {
                setEditingCustom(true);
                setStartDate(event.target.value);
              }}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              size="small"
              type="date"
              label="End Date"
              value={editingCustom ? endDate : value.endDate}
              onChange={(event) => {
                setEditingCustom(true);
                setEndDate(event.target.value);
              }}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button variant="outlined" onClick={apply} disabled={!editingCustom}>
              Apply
            </Button>
          </>
        ) : null}
      </Stack>
      {error ? (
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
