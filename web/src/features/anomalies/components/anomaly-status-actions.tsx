import { Alert, Button, Stack } from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { useUpdateAnomalyStatus } from '../api/update-anomaly-status';
import type { Anomaly, AnomalyStatus } from '../types';
import { ANOMALY_MESSAGES } from '../utils/messages';

/**
 * Dismiss / Mark as expected on an open anomaly, Reopen on the others. Rendered for owners and
 * admins only (the server answers 403 to anyone else).
 */
export function AnomalyStatusActions({ anomaly }: { anomaly: Pick<Anomaly, 'id' | 'status'> }) {
  const update = useUpdateAnomalyStatus();
  const set = (status: AnomalyStatus) => update.mutate({ id: anomaly.id, status });
  const pending = update.isPending ? update.variables?.status : undefined;
  return (
    <Stack spacing={1} alignItems="flex-end">
      <Stack direction="row" spacing={1}>
        {anomaly.status === 'open' ? (
          <>
            <Button variant="outlined" onClick={() => set('dismissed')} loading={pending === 'dismissed'} disabled={update.isPending}>
              Dismiss
            </Button>
            <Button variant="outlined" onClick={() => set('expected')} loading={pending === 'expected'} disabled={update.isPending}>
              Mark as expected
            </Button>
          </>
        ) : (
          <Button variant="outlined" onClick={() => set('open')} loading={pending === 'open'} disabled={update.isPending}>
            Reopen
          </Button>
        )}
      </Stack>
      {update.isError ? (
        <Alert severity="error" onClose={() => update.reset()}>
          {errorMessage(update.error, ANOMALY_MESSAGES.statusFailed)}
        </Alert>
      ) : null}
    </Stack>
  );
}
