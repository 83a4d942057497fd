import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { IngestJob } from '../types';
import { isFinished } from '../utils/status';
import { ingestKeys } from './keys';

/** An upload's state is polled this often until it has succeeded or failed. */
export const POLL_INTERVAL_MS = 1_000;

export const getIngestJob = (id: IngestJob['id']) =>
  unwrap<IngestJob>(api.GET('/v1/ingest/{id}', { params: { path: { id } } }));

export const ingestJobQuery = (id: IngestJob['id']) =>
  queryOptions({
    queryKey: ingestKeys.detail(id),
    queryFn: () => getIngestJob(id),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data.status) ? false : POLL_INTERVAL_MS),
  });

/** Polls GET /v1/ingest/{id} every second while `id` is set and the load has not finished. */
export const useIngestJob = (id: IngestJob['id'] | null) =>
  useQuery({ ...ingestJobQuery(id ?? 0), enabled: id !== null });
