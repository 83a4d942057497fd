import type { User } from '@/api/types';
import { ConfirmRemovalDialog } from '@/components/confirm-removal-dialog';
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
    <ConfirmRemovalDialog
      titleId="delete-user-title"
      title="Delete user"
      confirmLabel="Delete"
      error={remove.isError ? USER_MESSAGES.deleteFailed : null}
      pending={remove.isPending}
      onConfirm={() => remove.mutate(user.id, { onSuccess: onDeleted })}
      onClose={onClose}
    >
      Delete <strong>{user.name || user.email}</strong> ({user.email})? They lose access to this account at once. This
      cannot be undone.
    </ConfirmRemovalDialog>
  );
}
