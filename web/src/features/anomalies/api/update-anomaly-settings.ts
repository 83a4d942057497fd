import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { AnomalySettings } from '../types';
import { anomalyKeys } from './keys';

/** PUT /v1/anomalies/settings (owners and admins); the answer is the settings as stored. */
export const updateAnomalySettings = (body: AnomalySettings) =>
  unwrap<AnomalySettings>(api.PUT('/v1/anomalies/settings', { body }));

export function useUpdateAnomalySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAnomalySettings,
    onSuccess: (saved) => queryClient.setQueryData(anomalyKeys.settings(), saved),
  });
}
