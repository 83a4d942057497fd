import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/api/client';
import { inventoryApi, type ResourceStats } from '@/components/inventory';

/** `POST /v1/resource/stats`: how many live resources of each type discovery found (empty states). */
export const getResourceStats = () => unwrap<ResourceStats>(inventoryApi.POST('/v1/resource/stats', { body: {} }));

export const resourceStatsQuery = () => queryOptions({ queryKey: ['inventory', 'stats'] as const, queryFn: getResourceStats });

export const useResourceStats = () => useQuery(resourceStatsQuery());
