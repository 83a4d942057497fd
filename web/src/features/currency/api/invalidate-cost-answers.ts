import type { QueryClient } from '@tanstack/react-query';
import { sharedKeys } from '@/api/queries';
import type { CurrencySettings } from '../types';
import { currencyKeys } from './keys';

/**
 * After the display currency or the rates change, every cost answer (cost pages, Mission
 * Control, budgets) may be in another currency or converted differently: every cached answer
 * but the session's is marked stale, and the ones on screen are asked again.
 */
export function afterCurrencyChange(queryClient: QueryClient, settings?: CurrencySettings) {
  if (settings) queryClient.setQueryData(currencyKeys.settings(), settings);
  const session = new Set<unknown>([sharedKeys.config[0], sharedKeys.me[0]]);
  return queryClient.invalidateQueries({ predicate: (query) => !session.has(query.queryKey[0]) });
}
