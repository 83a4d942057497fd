import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { IconButton, InputAdornment, MenuItem, Stack, TextField, ToggleButton, ToggleButtonGroup, Tooltip } from '@mui/material';
import { ALERT_BASES } from '../../model/alerts';
import type { AlertBasis, ThresholdType } from '../../model/types';
import type { WizardAlert } from '../../model/wizard';

export interface AlertRowProps {
  /** 1-based, names the row's controls ('Alert 1 threshold'). */
  position: number;
  alert: WizardAlert;
  error: string | undefined;
  onValueChange(value: string): void;
  /** Asks to switch to the other type; the editor confirms first. */
  onTypeSwitch(type: ThresholdType): void;
  /** Actual: the spend reaches the threshold; Forecasted: the period's forecast total does. */
  onBasisChange(basis: AlertBasis): void;
  onRemove(): void;
}

/**
 * One alert threshold: % of the budget or a dollar amount, its value, what reaches it (the
 * spend or the forecast) and a remove button.
 */
export function AlertRow({ position, alert, error, onValueChange, onTypeSwitch, onBasisChange, onRemove }: AlertRowProps) {
  const name = `Alert ${position}`;
  const percentage = alert.thresholdType === 'Percentage';
  return (
    <Stack role="group" aria-label={name} direction="row" spacing={1.5} alignItems="flex-start" flexWrap="wrap" useFlexGap>
      <ToggleButtonGroup
        size="small"
        exclusive
        aria-label={`${name} type`}
        value={alert.thresholdType}
        onChange={(_event, next: ThresholdType | null) => {
          if (next && next !== alert.thresholdType) onTypeSwitch(next);
        }}
        sx={{ mt: 0.25 }}
      >
        <ToggleButton value="Percentage" aria-label="Percentage">
          %
        </ToggleButton>
        <ToggleButton value="Absolute" aria-label="Absolute">
          $
        </ToggleButton>
      </ToggleButtonGroup>
      <TextField
        size="small"
        label={`${name} threshold`}
        value={alert.value}
        onChange={(event) => onValueChange(event.target.value)}
        error={Boolean(error)}
        helperText={error}
        slotProps={{
          htmlInput: { inputMode: 'numeric' },
          input: percentage
            ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
            : { startAdornment: <InputAdornment position="start">$</InputAdornment> },
        }}
        sx={{ width: 200 }}
      />
      <TextField
        select
        size="small"
        label={`${name} basis`}
        value={alert.basis}
        onChange={(event) => onBasisChange(event.target.value as AlertBasis)}
        sx={{ width: 150 }}
      >
        {ALERT_BASES.map((basis) => (
          <MenuItem key={basis} value={basis}>
            {basis}
          </MenuItem>
        ))}
      </TextField>
      <Tooltip title="Remove alert">
        <IconButton aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove}>
          <DeleteOutlineIcon />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}
