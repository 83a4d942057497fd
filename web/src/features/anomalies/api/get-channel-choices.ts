import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { Channel } from '../types';

/**
 * GET /v1/channels, for the settings' channel choices. The key is the Notifications page's
 * own ('notifications', 'channels') with the same answer, so a channel added or removed there
 * shows here too (features do not import each other; they share the cache entry instead).
 */
export const channelChoicesQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: ['notifications', 'channels'] as const,
    queryFn: () => unwrap<Channel[]>(api.GET('/v1/channels')),
    enabled,
  });

export const useChannelChoices = (enabled = true) => useQuery(channelChoicesQuery(enabled));
