import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { Delivery } from '../types';
import { notificationKeys } from './keys';

/** How many of the latest deliveries the page lists (the server allows 1–200). */
export const DELIVERIES_LIMIT = 50;
/** The list is re-read this often while the page is open: retries land in the background. */
export const DELIVERIES_REFRESH_MS = 30_000;

export const getDeliveries = (limit: number) =>
  unwrap<Delivery[]>(api.GET('/v1/notifications/deliveries', { params: { query: { limit } } }));

export const deliveriesQuery = (limit = DELIVERIES_LIMIT) =>
  queryOptions({
    queryKey: notificationKeys.deliveries(limit),
    queryFn: () => getDeliveries(limit),
    staleTime: 0,
    refetchInterval: DELIVERIES_REFRESH_MS,
  });

export const useDeliveries = () => useQuery(deliveriesQuery());
