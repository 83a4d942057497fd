import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { Channel } from '../types';
import { notificationKeys } from './keys';

export const getChannels = () => unwrap<Channel[]>(api.GET('/v1/channels'));

export const channelsQuery = () => queryOptions({ queryKey: notificationKeys.channels(), queryFn: getChannels });

export const useChannels = () => useQuery(channelsQuery());
