import type { CloudConnection, Registration, SyncStatus } from '../types';

/** A sync is busy from the moment it is requested until it has finished. */
export function isSyncBusy(sync: SyncStatus | null | undefined): boolean {
  if (!sync) return false;
  if (sync.state === 'running') return true;
  if (!sync.requested_at) return false;
  // Requested and not started since: waiting for the sync job.
  return !sync.last_started_at || Date.parse(sync.last_started_at) < Date.parse(sync.requested_at);
}

export type SyncLabel = 'Requested' | 'Running' | 'Succeeded' | 'Failed' | 'Never synced';

export function syncLabel(sync: SyncStatus | null | undefined): SyncLabel {
  if (sync?.state === 'running') return 'Running';
  if (isSyncBusy(sync)) return 'Requested';
  if (sync?.state === 'succeeded') return 'Succeeded';
  if (sync?.state === 'failed') return 'Failed';
  return 'Never synced';
}

export type RegistrationLabel = 'In progress' | 'Connected' | 'Failed' | 'Not checked';

export function registrationLabel(registration: Registration | null | undefined): RegistrationLabel {
  if (!registration) return 'Not checked';
  if (registration.State === 6) return 'Connected';
  if (registration.State === 7) return 'Failed';
  return 'In progress';
}

/**
 * Connected unless the server says otherwise; a row without the flag (an older server) is
 * connected when it has an id.
 */
export function isConnected(row: CloudConnection): boolean {
  return row.connected ?? row.id != null;
}

/** A member account listed under its organisation's connection. */
export function isMemberRow(row: CloudConnection): boolean {
  return row.parent_id != null;
}

/** The row's state as one word for the table (and its sort). */
export function connectionStateLabel(row: CloudConnection): string {
  if (!isConnected(row)) return 'Not connected';
  if (isMemberRow(row)) return 'Member account';
  return registrationLabel(row.registration);
}

/** The newest finished or started sync time, for "Last sync". */
export function lastSyncTime(sync: SyncStatus | null | undefined): string | null {
  return sync?.last_finished_at ?? sync?.last_started_at ?? null;
}

const dateTimeUtc = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "22 Nov 2026, 14:05 UTC", in UTC like every date in the console. */
export function formatDateTimeUtc(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${dateTimeUtc.format(date)} UTC`;
}
