import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { DigestSettings } from '../types';
import { notificationKeys } from './keys';

export const getMyDigest = () => unwrap<DigestSettings>(api.GET('/v1/me/digest'));

export const myDigestQuery = () => queryOptions({ queryKey: notificationKeys.digest(), queryFn: getMyDigest });

export const useMyDigest = () => useQuery(myDigestQuery());
