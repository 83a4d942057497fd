import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, CircularProgress, Container, Paper, Stack, TextField, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { errorMessage, isApiError } from '@/api/api-error';
import { PublicHeader } from '@/components/public-header';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitation } from '../api/get-invitation';
import { acceptInvitationSchema, type AcceptInvitationValues } from '../schemas';
import { AuthFormError } from './auth-form-error';

/** Public page of the one-time invitation link: /invite/:token. */
export function InvitationPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AcceptInvitationValues>({
    resolver: zodResolver(acceptInvitationSchema),
    defaultValues: { name: '', password: '' },
  });

  const onSubmit = handleSubmit((values) =>
    accept.mutate(
      { token, ...values },
      {
        onSuccess: () => navigate('/', { replace: true }),
        onError: (error) => {
          if (!isApiError(error) || !error.details) return;
          for (const field of ['name', 'password'] as const) {
            const messages = error.details[field];
            if (Array.isArray(messages) && typeof messages[0] === 'string') {
              setError(field, { message: messages[0] });
            }
          }
        },
      },
    ),
  );

  let content;
  if (invitation.isPending) {
    content = (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
        <CircularProgress aria-label="Loading invitation" />
      </Box>
    );
  } else if (invitation.isError) {
    content = (
      <Stack spacing={3}>
        <Typography variant="h5" component="h1">
          Invitation
        </Typography>
        <Alert severity="error">
          {errorMessage(invitation.error, 'This invitation link is invalid or has already been used')}
        </Alert>
        <Button component={RouterLink} to="/" variant="contained">
          Go to sign in
        </Button>
      </Stack>
    );
  } else {
    const info = invitation.data;
    content = (
      <form onSubmit={onSubmit} noValidate aria-label="Accept invitation">
        <Typography variant="h5" component="h1" gutterBottom>
          Join {info.customer_name} on Costscope
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {info.invited_by} invited you to join {info.customer_name}. Choose your name and a password to finish
          setting up your account.
        </Typography>
        <AuthFormError error={accept.error} />
        <Stack spacing={2.5}>
          <TextField id="invite-email" label="Email" value={info.email} fullWidth slotProps={{ htmlInput: { readOnly: true } }} />
          <TextField
            id="invite-name"
            label="Name"
            placeholder="Enter name"
            autoComplete="name"
            error={Boolean(errors.name)}
            helperText={errors.name?.message}
            fullWidth
            autoFocus
            {...register('name')}
          />
          <TextField
            id="invite-password"
            label="Password"
            type="password"
            placeholder="Enter your password"
            autoComplete="new-password"
            error={Boolean(errors.password)}
            helperText={errors.password?.message ?? 'At least 8 characters'}
            fullWidth
            {...register('password')}
          />
          <Button type="submit" variant="contained" size="large" loading={accept.isPending} fullWidth>
            Accept invitation
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <PublicHeader />
      <Container maxWidth="sm" sx={{ flex: 1, display: 'flex', alignItems: 'center', py: { xs: 3, sm: 6 } }}>
        <Paper variant="outlined" sx={{ width: '100%', p: { xs: 3, sm: 5 } }}>
          {content}
        </Paper>
      </Container>
    </Box>
  );
}
