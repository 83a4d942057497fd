// zod/mini keeps the sign-in bundle small; the rules mirror the server's (docs/API.md, Auth).
import { z } from 'zod/mini';
import { validateUserName } from '@/lib/user-name';

export const AUTH_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
} as const;

export const PASSWORD_MIN_LENGTH = 8;

/** Required, then well-formed: a blank field only says it is required. */
export const emailField = () =>
  z.pipe(
    z.string().check(z.trim(), z.minLength(1, { error: AUTH_MESSAGES.emailRequired })),
    z.email({ error: AUTH_MESSAGES.emailInvalid }),
  );

const newPassword = () =>
  z.string().check(
    z.minLength(1, { error: AUTH_MESSAGES.passwordRequired }),
    z.minLength(PASSWORD_MIN_LENGTH, { error: AUTH_MESSAGES.passwordTooShort }),
  );

export const signInSchema = z.object({
  email: emailField(),
  password: z.string().check(z.minLength(1, { error: AUTH_MESSAGES.passwordRequired })),
});
export type SignInValues = z.infer<typeof signInSchema>;

export const signUpSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, { error: AUTH_MESSAGES.nameRequired })),
  email: emailField(),
  password: newPassword(),
});
export type SignUpValues = z.infer<typeof signUpSchema>;

export const acceptInvitationSchema = z.object({
  name: z.string().check(
    z.superRefine((value, ctx) => {
      const message = validateUserName(value);
      if (message) ctx.addIssue({ code: 'custom', message, input: value });
    }),
  ),
  password: newPassword(),
});
export type AcceptInvitationValues = z.infer<typeof acceptInvitationSchema>;
