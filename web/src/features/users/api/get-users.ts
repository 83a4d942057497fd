import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { User } from '@/api/types';
import { userKeys } from './keys';

export const getUsers = () => unwrap<User[]>(api.GET('/v1/users'));

export const usersQuery = () => queryOptions({ queryKey: userKeys.list(), queryFn: getUsers });

export const useUsers = () => useQuery(usersQuery());
