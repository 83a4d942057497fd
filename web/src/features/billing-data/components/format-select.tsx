import { MenuItem, TextField } from '@mui/material';
import { FORMAT_OPTIONS, type FormatChoice } from '../utils/formats';

export interface FormatSelectProps {
  value: FormatChoice;
  disabled?: boolean;
  onChange: (value: FormatChoice) => void;
}

/** The export format of the upload; "Auto-detect" lets the server recognise each file. */
export function FormatSelect({ value, disabled = false, onChange }: FormatSelectProps) {
  return (
    <TextField
      select
      label="Format"
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as FormatChoice)}
      sx={{ minWidth: 280 }}
      size="small"
    >
      {FORMAT_OPTIONS.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
