import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import { signInWith } from '@/api/session';
import type { AuthResponse, SignupRequest } from '@/api/types';

export const signUp = (body: SignupRequest) => unwrap<AuthResponse>(api.POST('/v1/auth/signup', { body }));

export function useSignUp() {
  return useMutation({
    mutationFn: signUp,
    onSuccess: (auth) => signInWith(auth),
  });
}
