import type { IngestJob } from '../types';

export const ingestKeys = {
  all: ['ingest'] as const,
  list: () => ['ingest', 'list'] as const,
  detail: (id: IngestJob['id']) => ['ingest', 'detail', id] as const,
};
