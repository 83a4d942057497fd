import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from 'openapi-fetch';
import { api, unwrap } from '@/api/client';
import type {
  InventoryPaths,
  JobTriggerResponse,
  PropertySnapshot,
  Resource,
  ResourceCountAccount,
  ResourceListRequest,
  ResourceListResponse,
  ResourceParam,
  UnmatchedSpend,
} from './types';
import { HISTORY_SNAPSHOTS } from './constants';
import { presetWindow } from './filters';
import type { ResourceKeyRef } from './resource-link';

/**
 * The app's one API client (bearer token, refresh, ApiError, 401 → sign out), typed with the
 * issue 14 paths until `schema.gen.ts` holds them; then this becomes `api` itself.
 */
export const inventoryApi = api as unknown as Client<InventoryPaths>;

export const inventoryKeys = {
  all: ['inventory'] as const,
  resources: (body: ResourceListRequest) => ['inventory', 'resources', body] as const,
  counts: ['inventory', 'counts'] as const,
  property: (resource: { account_id: string; region: string; resource_type: string; resource_id: string }) =>
    ['inventory', 'property', resource.account_id, resource.region, resource.resource_type, resource.resource_id] as const,
  params: (types: readonly string[]) => ['inventory', 'params', [...types].sort()] as const,
  unmatched: (start: number, end: number) => ['inventory', 'unmatched-spend', start, end] as const,
  resource: (resource: ResourceKeyRef) =>
    ['inventory', 'resource', resource.account_id, resource.region, resource.resource_type, resource.resource_id] as const,
};

export const listResources = (body: ResourceListRequest, signal?: AbortSignal) =>
  unwrap<ResourceListResponse>(inventoryApi.POST('/v1/resource', { body, signal }));

/** `POST /v1/resource/export`: the server's CSV of every resource the filters match. */
export async function exportResources(body: ResourceListRequest): Promise<Blob> {
  const { data } = await inventoryApi.POST('/v1/resource/export', { body, parseAs: 'blob' });
  return data as Blob;
}

export const countResources = () =>
  unwrap<ResourceCountAccount[]>(inventoryApi.POST('/v1/resource/count', { body: { all_resources: true } }));

export const resourceSnapshots = (resource: { account_id: string; region: string; resource_type: string; resource_id: string }) =>
  unwrap<PropertySnapshot[]>(
    inventoryApi.POST('/v1/resource/property', {
      body: {
        account_ids: [resource.account_id],
        resource_id: resource.resource_id,
        resource_type: resource.resource_type,
        region: resource.region,
        order_desc: true,
        order_by: 'c_time',
        count: HISTORY_SNAPSHOTS,
      },
    }),
  );

export const resourceParams = (types: readonly string[]) =>
  unwrap<ResourceParam[]>(inventoryApi.GET('/v1/resource/params', { params: { query: { resourceType: [...types] } } }));

export const unmatchedSpend = (start: number, end: number) =>
  unwrap<UnmatchedSpend>(inventoryApi.GET('/v1/resource/unmatched-spend', { params: { query: { start_time: start, end_time: end } } }));

export const triggerDiscovery = () => unwrap<JobTriggerResponse>(inventoryApi.POST('/v1/job', {}));

export const resourcesQuery = (body: ResourceListRequest) =>
  queryOptions({
    queryKey: inventoryKeys.resources(body),
    queryFn: ({ signal }) => listResources(body, signal),
    // §4: every filter change reloads, a return to earlier filters too (POST, not the GET cache).
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useResources = (body: ResourceListRequest) => useQuery(resourcesQuery(body));

/** The AWS Account, Region and Resource Types options: what discovery has found. */
export const useResourceCounts = () => useQuery({ queryKey: inventoryKeys.counts, queryFn: countResources });

export const useResourceSnapshots = (
  resource: { account_id: string; region: string; resource_type: string; resource_id: string } | null,
) =>
  useQuery({
    queryKey: resource ? inventoryKeys.property(resource) : ['inventory', 'property', null],
    queryFn: () => resourceSnapshots(resource!),
    enabled: resource !== null,
  });

export const useResourceParams = (types: readonly string[], enabled: boolean) =>
  useQuery({ queryKey: inventoryKeys.params(types), queryFn: () => resourceParams(types), enabled });

export const useUnmatchedSpend = (start: number, end: number) =>
  useQuery({ queryKey: inventoryKeys.unmatched(start, end), queryFn: () => unmatchedSpend(start, end) });

/**
 * One resource by its key (a link opens its panel); null when the inventory does not hold it.
 * The widest window the server allows (900 days back), so that a resource deleted before the
 * default 30 days still opens.
 */
export const resourceByKey = async (resource: ResourceKeyRef, signal?: AbortSignal, now?: Date): Promise<Resource | null> => {
  const answer = await listResources(
    {
      account_ids: [resource.account_id],
      regions: [resource.region],
      resource_types: [resource.resource_type],
      resource_ids: [resource.resource_id],
      start_time: presetWindow('last900Days', now).start,
      count: 1,
    },
    signal,
  );
  return answer.resources[0] ?? null;
};

export const useResourceByKey = (resource: ResourceKeyRef | null, now?: Date) =>
  useQuery({
    queryKey: resource ? inventoryKeys.resource(resource) : ['inventory', 'resource', null],
    queryFn: ({ signal }) => resourceByKey(resource!, signal, now),
    enabled: resource !== null,
  });
