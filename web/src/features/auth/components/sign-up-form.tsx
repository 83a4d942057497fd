import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, TextField, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useSignUp } from '../api/sign-up';
import { signUpSchema, type SignUpValues } from '../schemas';
import { AuthFormError } from './auth-form-error';

export interface SignUpFormProps {
  onSignedUp?: () => void;
}

export function SignUpForm({ onSignedUp }: SignUpFormProps) {
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignUpValues>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { name: '', email: '', password: '' },
  });

  const onSubmit = handleSubmit((values) => signUp.mutate(values, { onSuccess: () => onSignedUp?.() }));

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create account">
      <AuthFormError error={signUp.error} />
      <Stack spacing={2.5}>
        <TextField
          id="sign-up-name"
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
          id="sign-up-email"
          label="Email"
          type="email"
          placeholder="Enter your email address"
          autoComplete="email"
          error={Boolean(errors.email)}
          helperText={errors.email?.message}
          fullWidth
          {...register('email')}
        />
        <TextField
          id="sign-up-password"
          label="Password"
          type="password"
          placeholder="Enter your password"
          autoComplete="new-password"
          error={Boolean(errors.password)}
          helperText={errors.password?.message ?? 'At least 8 characters'}
          fullWidth
          {...register('password')}
        />
        <Button type="submit" variant="contained" size="large" loading={signUp.isPending} fullWidth>
          Create Account
        </Button>
        <Typography variant="body2" color="text.secondary" textAlign="center">
          Your 30-day free trial starts today. No credit card needed.
        </Typography>
      </Stack>
    </form>
  );
}
