import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { AnomalyList } from '../types';
import { anomalyKeys, type AnomalyListQuery } from './keys';

/** GET /v1/anomalies: the runs overlapping the range, largest impact first. */
export const getAnomalies = (query: AnomalyListQuery) =>
  unwrap<AnomalyList>(api.GET('/v1/anomalies', { params: { query } }));

export const anomaliesQuery = (query: AnomalyListQuery) =>
  queryOptions({ queryKey: anomalyKeys.list(query), queryFn: () => getAnomalies(query) });

/** The list keeps showing the previous answer while another range or status loads. */
export const useAnomalies = (query: AnomalyListQuery) => useQuery({ ...anomaliesQuery(query), placeholderData: keepPreviousData });
