import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { startSessionRefresh } from '@/api/auth-refresh';
import { sharedKeys } from '@/api/queries';
import { subscribeSession } from '@/api/session';
import { createQueryClient } from './query-client';

export interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
}

/**
 * Server-state cache and the session keeper. MUI's theme is not here: it comes with the pages
 * that use MUI (`AppTheme`), so the sign-in page loads without it.
 */
export function AppProviders({ children, queryClient }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());

  useEffect(() => startSessionRefresh(), []);
  // Whoever signs in next must not see the previous user's cached data.
  useEffect(
    () =>
      subscribeSession((session) => {
        if (!session) {
          client.cancelQueries();
          client.removeQueries({ predicate: (query) => query.queryKey.join('/') !== sharedKeys.config.join('/') });
          client.getMutationCache().clear();
        }
      }),
    [client],
  );

  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
