import type { ReactNode } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

export interface ConfirmRemovalDialogProps {
  /** Id of the title element, for the dialog's accessible name. */
  titleId: string;
  title: string;
  /** What will happen, in the dialog's body. */
  children: ReactNode;
  /** The destructive button's label ("Delete", "Remove"). */
  confirmLabel: string;
  /** Why the last attempt failed; `null` while nothing failed. */
  error: string | null;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A small dialog that asks before removing something, with the failure shown above its text. */
export function ConfirmRemovalDialog({
  titleId,
  title,
  children,
  confirmLabel,
  error,
  pending,
  onConfirm,
  onClose,
}: ConfirmRemovalDialogProps) {
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {error !== null ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        <DialogContentText>{children}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" color="error" loading={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
