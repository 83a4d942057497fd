import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { Controller, useForm } from 'react-hook-form';
import type { UpdateUserRequest, User } from '@/api/types';
import { normaliseUserName, validateUserName } from '@/lib/user-name';
import { useUpdateUser } from '../api/update-user';
import { USER_MESSAGES } from '../utils/messages';
import { toAssignableRole, type AssignableRole } from '../utils/permissions';
import { RoleSelect } from './role-select';

interface EditValues {
  name: string;
  role: AssignableRole;
}

export interface EditUserDialogProps {
  user: User;
  /** Whether the role select is enabled (admins, on someone else's row). */
  canChangeRole: boolean;
  onClose: () => void;
  onSaved: () => void;
}

export function EditUserDialog({ user, canChangeRole, onClose, onSaved }: EditUserDialogProps) {
  const update = useUpdateUser();
  const initialRole = toAssignableRole(user.role);
  const {
    register,
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<EditValues>({ defaultValues: { name: user.name, role: initialRole } });

  const onSubmit = handleSubmit((values) => {
    const body: UpdateUserRequest = {};
    const name = normaliseUserName(values.name);
    if (name !== user.name) {
      const problem = validateUserName(values.name);
      if (problem) {
        setError('name', { message: problem });
        return;
      }
      body.name = name;
    }
    if (canChangeRole && values.role !== initialRole) body.role = values.role;
    if (body.name === undefined && body.role === undefined) {
      setError('root', { message: USER_MESSAGES.noChanges });
      return;
    }
    update.mutate({ id: user.id, ...body }, { onSuccess: onSaved });
  });

  const problem = errors.root?.message ?? (update.isError ? USER_MESSAGES.updateFailed : undefined);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="edit-user-title">
      <form onSubmit={onSubmit} noValidate onChange={() => clearErrors('root')}>
        <DialogTitle id="edit-user-title">Edit user</DialogTitle>
        <DialogContent>
          {problem ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {problem}
            </Alert>
          ) : null}
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField label="Email" value={user.email} fullWidth disabled id="edit-user-email" />
            <TextField
              id="edit-user-name"
              label="Name"
              fullWidth
              autoFocus
              error={Boolean(errors.name)}
              helperText={errors.name?.message}
              {...register('name')}
            />
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <RoleSelect
                  id="edit-user-role"
                  disabled={!canChangeRole}
                  helperText={canChangeRole ? undefined : 'You cannot change this role.'}
                  {...field}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" loading={update.isPending}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
