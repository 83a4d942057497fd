// How far a load has got, in words and as a share of its files read (GET /v1/ingest/{id}).
import type { IngestPhase, IngestProgress } from '../types';
import { formatBytes, formatCount } from './numbers';

export const PHASE_LABELS: Record<IngestPhase, string> = {
  queued: 'Queued…',
  reading: 'Reading files…',
  checking: 'Checking rows…',
  writing: 'Writing rows…',
  rollups: 'Updating daily totals…',
  done: 'Loaded',
  failed: 'Failed',
};

/** Percent of the upload's bytes read (0–100), while the files are read and checked; `null` otherwise. */
export function readPercent(progress: IngestProgress): number | null {
  if (progress.phase !== 'reading' && progress.phase !== 'checking') return null;
  if (progress.bytes_total <= 0) return null;
  return Math.min(100, Math.round((progress.bytes_read / progress.bytes_total) * 100));
}

/** "focus.csv.gz (1 of 2)", or the name alone for a single file. */
function fileLabel(progress: IngestProgress): string {
  return progress.files > 1 ? `${progress.file_name} (${progress.file_index + 1} of ${progress.files})` : progress.file_name;
}

/** The details under the phase: the file, the bytes read of the total, the rows read. */
export function progressDetails(progress: IngestProgress): string {
  const read = `${formatBytes(progress.bytes_read)} of ${formatBytes(progress.bytes_total)} read`;
  const rows = `${formatCount(progress.rows_read)} rows`;
  switch (progress.phase) {
    case 'queued':
      return `Waiting for the loader · ${formatBytes(progress.bytes_total)}`;
    case 'reading':
      return progress.rows_read > 0 ? `${fileLabel(progress)} · ${read} · ${rows} so far` : `${fileLabel(progress)} · ${read}`;
    case 'checking':
      return `${fileLabel(progress)} · ${read} · ${rows} read`;
    case 'writing':
    case 'rollups':
    case 'done':
      return `${rows} read · ${formatBytes(progress.bytes_total)}`;
    case 'failed':
      return `Stopped at ${fileLabel(progress)} · ${read} · ${rows} read`;
  }
}
