import { SubmitButton } from '@/components/plain/submit-button';
import { TextField } from '@/components/plain/text-field';
import { useSignIn } from '../api/sign-in';
import { useSchemaForm } from '../hooks/use-schema-form';
import { signInSchema } from '../schemas';
import { AuthFormError } from './auth-form-error';

export interface SignInFormProps {
  onSignedIn?: () => void;
}

export function SignInForm({ onSignedIn }: SignInFormProps) {
  const signIn = useSignIn();
  const { field, handleSubmit } = useSchemaForm(signInSchema, { email: '', password: '' });

  const onSubmit = handleSubmit((values) => signIn.mutate(values, { onSuccess: () => onSignedIn?.() }));

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in">
      <AuthFormError error={signIn.error} />
      <div className="cs-stack">
        <TextField
          id="sign-in-email"
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="Enter your email address"
          autoFocus
          {...field('email')}
        />
        <TextField
          id="sign-in-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          placeholder="Enter your password"
          {...field('password')}
        />
        <SubmitButton loading={signIn.isPending}>Sign in</SubmitButton>
      </div>
    </form>
  );
}
