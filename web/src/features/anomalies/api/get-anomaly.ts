import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { AnomalyDetail } from '../types';
import { anomalyKeys } from './keys';

/** GET /v1/anomalies/{id}: the anomaly with its series (read and scanned again by the server). */
export const getAnomaly = (id: number) =>
  unwrap<AnomalyDetail>(api.GET('/v1/anomalies/{id}', { params: { path: { id } } }));

export const anomalyQuery = (id: number) => queryOptions({ queryKey: anomalyKeys.detail(id), queryFn: () => getAnomaly(id) });

export const useAnomaly = (id: number) => useQuery(anomalyQuery(id));
