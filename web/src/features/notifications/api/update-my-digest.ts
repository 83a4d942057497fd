import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { DigestSettings, DigestSettingsRequest } from '../types';
import { notificationKeys } from './keys';

/** PUT /v1/me/digest (any role: it is the caller's own); the answer is the choice as stored. */
export const updateMyDigest = (body: DigestSettingsRequest) => unwrap<DigestSettings>(api.PUT('/v1/me/digest', { body }));

export function useUpdateMyDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMyDigest,
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.digest(), saved),
  });
}
