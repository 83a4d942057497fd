import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import { signInWith } from '@/api/session';
import type { AuthResponse, LoginRequest } from '@/api/types';

export const signIn = (body: LoginRequest) => unwrap<AuthResponse>(api.POST('/v1/auth/login', { body }));

export function useSignIn() {
  return useMutation({
    mutationFn: signIn,
    onSuccess: (auth) => signInWith(auth),
  });
}
