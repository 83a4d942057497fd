import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, TextField } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useSignIn } from '../api/sign-in';
import { signInSchema, type SignInValues } from '../schemas';
import { AuthFormError } from './auth-form-error';

export interface SignInFormProps {
  onSignedIn?: () => void;
}

export function SignInForm({ onSignedIn }: SignInFormProps) {
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignInValues>({ resolver: zodResolver(signInSchema), defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit((values) => signIn.mutate(values, { onSuccess: () => onSignedIn?.() }));

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in">
      <AuthFormError error={signIn.error} />
      <Stack spacing={2.5}>
        <TextField
          id="sign-in-email"
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="Enter your email address"
          error={Boolean(errors.email)}
          helperText={errors.email?.message}
          fullWidth
          autoFocus
          {...register('email')}
        />
        <TextField
          id="sign-in-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          placeholder="Enter your password"
          error={Boolean(errors.password)}
          helperText={errors.password?.message}
          fullWidth
          {...register('password')}
        />
        <Button type="submit" variant="contained" size="large" loading={signIn.isPending} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
