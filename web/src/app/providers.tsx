import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { startSessionRefresh } from '@/api/auth-refresh';
import { sharedKeys } from '@/api/queries';
import { subscribeSession } from '@/api/session';
import { createQueryClient } from './query-client';
import { theme } from './theme';

export interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
}

/** Theme, server-state cache and the session keeper. */
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

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </ThemeProvider>
  );
}
