import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { IngestJob } from '../types';
import { ingestKeys } from './keys';

/** While a load is queued or running, the history is re-read this often. */
export const HISTORY_REFRESH_MS = 5_000;

export const getIngestJobs = () => unwrap<IngestJob[]>(api.GET('/v1/ingest'));

export const ingestJobsQuery = () =>
  queryOptions({
    queryKey: ingestKeys.list(),
    queryFn: getIngestJobs,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.some((job) => job.status === 'queued' || job.status === 'running') ? HISTORY_REFRESH_MS : false,
  });

export const useIngestJobs = () => useQuery(ingestJobsQuery());
