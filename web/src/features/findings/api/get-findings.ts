import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from 'openapi-fetch';
import { api, unwrap } from '@/api/client';
import type { Finding, FindingCategory, FindingsPaths } from '../types';

/** The app's API client typed with `/v1/findings` until `schema.gen.ts` holds it. */
const findingsApi = api as unknown as Client<FindingsPaths>;

export const findingKeys = {
  all: ['findings'] as const,
  list: (category: FindingCategory) => ['findings', category] as const,
};

export const getFindings = (category: FindingCategory, signal?: AbortSignal) =>
  unwrap<Finding[]>(findingsApi.GET('/v1/findings', { params: { query: { category } }, signal }));

export const findingsQuery = (category: FindingCategory) =>
  queryOptions({ queryKey: findingKeys.list(category), queryFn: ({ signal }) => getFindings(category, signal) });

export const useFindings = (category: FindingCategory) => useQuery(findingsQuery(category));
