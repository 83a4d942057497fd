import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { useDeleteBudget } from '../../api';
import { markBudgetsForRefresh } from '../../model/refresh-flag';
import type { Budget } from '../../model/types';

export const DELETE_BUDGET_FAILED = 'Failed to delete budget. Please try again.';

export interface DeleteBudgetDialogProps {
  budget: Budget;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
}

/**
 * Delete confirmation (spec 2 §5 "Deleting a budget requires typing the exact name"; §8 the
 * modal stays open with the message on failure). Used by the card and the detail page.
 */
export function DeleteBudgetDialog({ budget, open, onClose, onDeleted }: DeleteBudgetDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="delete-budget-title">
      {/* The form unmounts with the closed dialog, so the typed name and the error start fresh. */}
      {open ? <DeleteBudgetForm budget={budget} onClose={onClose} onDeleted={onDeleted} /> : null}
    </Dialog>
  );
}

function DeleteBudgetForm({ budget, onClose, onDeleted }: Omit<DeleteBudgetDialogProps, 'open'>) {
  const remove = useDeleteBudget();
  const [typedName, setTypedName] = useState('');
  const confirmed = typedName === budget.name;

  const confirm = async () => {
    try {
      // mutateAsync, not mutate's callbacks: the card that opened the dialog may unmount as the list refetches.
      await remove.mutateAsync(budget.id);
    } catch {
      return; // remove.isError shows the message and the dialog stays.
    }
    markBudgetsForRefresh();
    onDeleted();
  };

  return (
    <>
      <DialogTitle id="delete-budget-title">Delete Budget</DialogTitle>
      <DialogContent>
        {remove.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {DELETE_BUDGET_FAILED}
          </Alert>
        ) : null}
        <DialogContentText sx={{ mb: 2 }}>
          This permanently deletes the budget <strong>{budget.name}</strong> with its alert and configuration history.
          Type the budget name to confirm.
        </DialogContentText>
        <TextField
          autoFocus
          fullWidth
          size="small"
          label="Budget name"
          value={typedName}
          onChange={(event) => setTypedName(event.target.value)}
          slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" color="error" disabled={!confirmed} loading={remove.isPending} onClick={confirm}>
          Delete
        </Button>
      </DialogActions>
    </>
  );
}
