import type { IngestStatus } from '../types';

export const STATUS_LABELS: Record<IngestStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

export const STATUS_COLORS: Record<IngestStatus, 'default' | 'info' | 'success' | 'error'> = {
  queued: 'default',
  running: 'info',
  succeeded: 'success',
  failed: 'error',
};

export function isFinished(status: IngestStatus): boolean {
  return status === 'succeeded' || status === 'failed';
}
