import { z } from 'zod';
import { validateUserName } from '@/lib/user-name';

/** Client rules mirroring the server's messages (docs/API.md, Auth). */
export const AUTH_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
} as const;

export const PASSWORD_MIN_LENGTH = 8;

const email = z
  .string()
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .pipe(z.email({ message: AUTH_MESSAGES.emailInvalid }));

const newPassword = z
  .string()
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort);

export const signInSchema = z.object({
  email,
  password: z.string().min(1, AUTH_MESSAGES.passwordRequired),
});
export type SignInValues = z.infer<typeof signInSchema>;

export const signUpSchema = z.object({
  name: z.string().trim().min(1, AUTH_MESSAGES.nameRequired),
  email,
  password: newPassword,
});
export type SignUpValues = z.infer<typeof signUpSchema>;

export const acceptInvitationSchema = z.object({
  name: z.string().superRefine((value, ctx) => {
    const message = validateUserName(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  }),
  password: newPassword,
});
export type AcceptInvitationValues = z.infer<typeof acceptInvitationSchema>;
