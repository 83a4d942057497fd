import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { Anomaly, AnomalyDetail, AnomalyStatus } from '../types';
import { anomalyKeys } from './keys';

/** PATCH /v1/anomalies/{id} (owners and admins): the anomaly with its new status. */
export const updateAnomalyStatus = ({ id, status }: { id: number; status: AnomalyStatus }) =>
  unwrap<Anomaly>(api.PATCH('/v1/anomalies/{id}', { params: { path: { id } }, body: { status } }));

export function useUpdateAnomalyStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAnomalyStatus,
    onSuccess: (updated) => {
      // The open page shows the answer at once (its series did not change); the lists, the open
      // counts and Mission Control's card are read again.
      queryClient.setQueryData<AnomalyDetail>(anomalyKeys.detail(updated.id), (old) => (old ? { ...old, ...updated } : old));
      return queryClient.invalidateQueries({ queryKey: anomalyKeys.all, predicate: (query) => query.queryKey[1] !== 'detail' });
    },
  });
}
