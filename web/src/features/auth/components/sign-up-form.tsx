import { SubmitButton } from '@/components/plain/submit-button';
import { TextField } from '@/components/plain/text-field';
import { useSignUp } from '../api/sign-up';
import { useSchemaForm } from '../hooks/use-schema-form';
import { signUpSchema } from '../schemas';
import { AuthFormError } from './auth-form-error';

export interface SignUpFormProps {
  onSignedUp?: () => void;
}

export function SignUpForm({ onSignedUp }: SignUpFormProps) {
  const signUp = useSignUp();
  const { field, handleSubmit } = useSchemaForm(signUpSchema, { name: '', email: '', password: '' });

  const onSubmit = handleSubmit((values) => signUp.mutate(values, { onSuccess: () => onSignedUp?.() }));

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create account">
      <AuthFormError error={signUp.error} />
      <div className="cs-stack">
        <TextField id="sign-up-name" label="Name" placeholder="Enter name" autoComplete="name" autoFocus {...field('name')} />
        <TextField
          id="sign-up-email"
          label="Email"
          type="email"
          placeholder="Enter your email address"
          autoComplete="email"
          {...field('email')}
        />
        <TextField
          id="sign-up-password"
          label="Password"
          type="password"
          placeholder="Enter your password"
          autoComplete="new-password"
          helperText="At least 8 characters"
          {...field('password')}
        />
        <SubmitButton loading={signUp.isPending}>Create Account</SubmitButton>
        <p className="cs-body2 cs-secondary" style={{ textAlign: 'center' }}>
          Your 30-day free trial starts today. No credit card needed.
        </p>
      </div>
    </form>
  );
}
