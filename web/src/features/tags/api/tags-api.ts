import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/api/client';
import { inventoryApi } from '@/components/inventory';
import type {
  ResourceStats,
  ResourceTrendPoint,
  ResourceTrendRequest,
  StandardTag,
  StandardTagRequest,
  StandardTagStats,
} from '@/components/inventory';

export const tagKeys = {
  standard: ['tags', 'standard'] as const,
  standardStats: ['tags', 'standard', 'stats'] as const,
  stats: ['inventory', 'stats'] as const,
  trend: (body: ResourceTrendRequest) => ['inventory', 'trend', body] as const,
};

export const listStandardTags = () => unwrap<StandardTag[]>(inventoryApi.GET('/tags/standard'));
export const createStandardTag = (body: StandardTagRequest) => unwrap<StandardTag>(inventoryApi.POST('/tags/standard', { body }));
export const updateStandardTag = (id: number, body: StandardTagRequest) =>
  unwrap<StandardTag>(inventoryApi.PUT('/tags/standard/{id}', { params: { path: { id } }, body }));
export const deleteStandardTag = async (id: number) => {
  await inventoryApi.DELETE('/tags/standard/{id}', { params: { path: { id } } });
};
export const standardTagStats = () => unwrap<StandardTagStats[]>(inventoryApi.GET('/tags/standard/stats'));
export const resourceStats = () => unwrap<ResourceStats>(inventoryApi.POST('/v1/resource/stats', { body: {} }));
export const resourceTrend = (body: ResourceTrendRequest) =>
  unwrap<ResourceTrendPoint[]>(inventoryApi.POST('/v1/resource/trend', { body }));

export const useStandardTags = () => useQuery({ queryKey: tagKeys.standard, queryFn: listStandardTags });
export const useStandardTagStats = () => useQuery({ queryKey: tagKeys.standardStats, queryFn: standardTagStats });
export const useResourceStats = () => useQuery({ queryKey: tagKeys.stats, queryFn: resourceStats });
export const useResourceTrend = (body: ResourceTrendRequest) =>
  useQuery({ queryKey: tagKeys.trend(body), queryFn: () => resourceTrend(body) });

function useInvalidateStandardTags() {
  const queryClient = useQueryClient();
  // The list and the compliance stats (which count against every standard tag).
  return () => queryClient.invalidateQueries({ queryKey: tagKeys.standard });
}

export function useSaveStandardTag() {
  const invalidate = useInvalidateStandardTags();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: StandardTagRequest }) =>
      id === undefined ? createStandardTag(body) : updateStandardTag(id, body),
    onSuccess: invalidate,
  });
}

export function useDeleteStandardTag() {
  const invalidate = useInvalidateStandardTags();
  return useMutation({ mutationFn: deleteStandardTag, onSuccess: invalidate });
}
