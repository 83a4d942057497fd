import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import type { InviteResponse } from '@/api/types';
import { useInviteUser } from '../api/invite-user';
import { inviteErrorMessage } from '../utils/messages';
import { ASSIGNABLE_ROLES } from '../utils/permissions';
import { RoleSelect } from './role-select';

const inviteSchema = z.object({
  email: z.pipe(
    z.string().check(z.trim(), z.minLength(1, { error: 'Email is required' })),
    z.email({ error: 'Enter a valid email address' }),
  ),
  role: z.enum(ASSIGNABLE_ROLES, { error: 'Role is required' }),
});
type InviteValues = z.infer<typeof inviteSchema>;

export interface InviteUserDialogProps {
  open: boolean;
  onClose: () => void;
  onInvited: (result: InviteResponse, email: string) => void;
}

export function InviteUserDialog({ open, onClose, onInvited }: InviteUserDialogProps) {
  const invite = useInviteUser();
  const {
    register,
    control,
    handleSubmit,
    reset,
    getValues,
    formState: { errors },
  } = useForm<InviteValues>({ resolver: zodResolver(inviteSchema), defaultValues: { email: '', role: 'User' } });

  const close = () => {
    reset();
    invite.reset();
    onClose();
  };

  const onSubmit = handleSubmit((values) =>
    invite.mutate(values, {
      onSuccess: (result) => {
        reset();
        invite.reset();
        onInvited(result, values.email);
      },
    }),
  );

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="invite-user-title">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="invite-user-title">Invite User</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            They get a one-time link to join your account, valid for 7 days.
          </DialogContentText>
          {invite.isError ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {inviteErrorMessage(invite.error, getValues('email').trim())}
            </Alert>
          ) : null}
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              id="invite-user-email"
              label="Email"
              type="email"
              placeholder="name@company.com"
              autoComplete="off"
              error={Boolean(errors.email)}
              helperText={errors.email?.message}
              fullWidth
              autoFocus
              {...register('email')}
            />
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <RoleSelect
                  id="invite-user-role"
                  error={Boolean(errors.role)}
                  helperText={errors.role?.message ?? 'Admins manage users and integrations; users can view.'}
                  {...field}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" loading={invite.isPending}>
            Send Invitation
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
