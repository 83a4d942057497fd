import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema.gen';
import type { CostQueryAnswer } from '../utils/query-results';
import type { CostQueryBody } from '../utils/query-request';

/**
 * POST /v1/query. The body's amounts are numbers, which the generated `QueryRequest` lists only
 * once the server documents `cost_amount`; the shape is otherwise the generated one.
 */
export const postCostQuery = (body: CostQueryBody, signal?: AbortSignal) =>
  unwrap<CostQueryAnswer>(api.POST('/v1/query', { body: body as unknown as components['schemas']['QueryRequest'], signal }));

/** Runs a query when asked (Run Query): each run posts, the last answer or error is kept. */
export function useRunCostQuery() {
  return useMutation<CostQueryAnswer, Error, CostQueryBody>({ mutationFn: (body) => postCostQuery(body) });
}
