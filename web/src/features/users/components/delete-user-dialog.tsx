import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { User } from '@/api/types';
import { useDeleteUser } from '../api/delete-user';
import { USER_MESSAGES } from '../utils/messages';

export interface DeleteUserDialogProps {
  user: User;
  onClose: () => void;
  onDeleted: () => void;
}

export function DeleteUserDialog({ user, onClose, onDeleted }: DeleteUserDialogProps) {
  const remove = useDeleteUser();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="delete-user-title">
      <DialogTitle id="delete-user-title">Delete user</DialogTitle>
      <DialogContent>
        {remove.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {USER_MESSAGES.deleteFailed}
          </Alert>
        ) : null}
        <DialogContentText>
          Delete <strong>{user.name || user.email}</strong> ({user.email})? They lose access to this account at once.
          This cannot be undone.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          color="error"
          loading={remove.isPending}
          onClick={() => remove.mutate(user.id, { onSuccess: onDeleted })}
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
