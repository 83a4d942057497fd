import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { ThresholdType } from '../../model/types';

export interface AlertTypeDialogProps {
  /** The type the alert would switch to. */
  target: ThresholdType;
  onConfirm(): void;
  onCancel(): void;
}

/** Confirms switching an alert between % and $ (spec 2 §2 "Budget wizard"). */
export function AlertTypeDialog({ target, onConfirm, onCancel }: AlertTypeDialogProps) {
  const toPercentage = target === 'Percentage';
  return (
    <Dialog open onClose={onCancel} maxWidth="xs" fullWidth aria-labelledby="alert-type-dialog-title">
      <DialogTitle id="alert-type-dialog-title">Change alert type?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {toPercentage
            ? 'The threshold becomes a percentage of the budget amount. Its value is kept between 1% and 100%.'
            : 'The threshold becomes a dollar amount, which cannot exceed the budget amount.'}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={onConfirm}>
          {toPercentage ? 'Switch to %' : 'Switch to $'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
