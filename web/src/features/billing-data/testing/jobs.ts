import type { IngestJob, IngestProgress } from '../types';

export function makeJob(overrides: Partial<IngestJob> = {}): IngestJob {
  return {
    id: 1,
    status: 'succeeded',
    files: [{ name: 'focus-2026-10.csv', bytes: 2048, format: 'focus', rows: 10 }],
    format: 'focus',
    rows: 10,
    replaced_rows: 0,
    billing_periods: [{ provider: 'aws', billing_account_id: '123456789012', billing_period_start: '2026-10-01T00:00:00Z' }],
    totals: [{ provider: 'aws', rows: 10, billed_cost: 123.45, effective_cost: 120, list_cost: 130, currency: 'USD' }],
    error: null,
    created_by: 'Olivia Owner',
    created_at: '2026-11-02T09:30:00Z',
    started_at: '2026-11-02T09:30:01Z',
    finished_at: '2026-11-02T09:30:03Z',
    progress: {
      phase: 'done',
      file_index: 0,
      files: 1,
      file_name: 'focus-2026-10.csv',
      rows_read: 10,
      bytes_read: 2048,
      bytes_total: 2048,
      updated_at: '2026-11-02T09:30:03Z',
    },
    ...overrides,
  };
}

/** A load's progress: `done` of one 2 KB file unless told otherwise. */
export function makeProgress(overrides: Partial<IngestProgress> = {}): IngestProgress {
  return { ...makeJob().progress, ...overrides };
}
