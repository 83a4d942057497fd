import type { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { createQueryClient } from '@/app/query-client';
import { AppTheme } from '@/app/app-theme';
import { AppProviders } from '@/app/providers';
import { Root } from '@/app/root';
import { sessionFromAuth, setSession } from '@/api/session';
import type { User } from '@/api/types';
import { makeAuth } from './fixtures';

export function signInAs(user: User, expiresIn = 900) {
  setSession(sessionFromAuth(makeAuth(user, { expires_in: expiresIn })));
}

/** Shows the current path and state so tests can assert navigation. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location" data-search={location.search} data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
    </div>
  );
}

/** The application's query client, without retries (a test's failed call fails at once). */
export function testQueryClient(): QueryClient {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  return queryClient;
}

export function renderWithProviders(
  ui: ReactElement,
  { route = '/', state, queryClient = testQueryClient() }: { route?: string; state?: unknown; queryClient?: QueryClient } = {},
) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders queryClient={queryClient}>
      <AppTheme>
        <MemoryRouter initialEntries={[{ pathname: route.split('?')[0], search: route.includes('?') ? `?${route.split('?')[1]}` : '', state }]}>
          {children}
          <LocationProbe />
        </MemoryRouter>
      </AppTheme>
    </AppProviders>
  );
  return { user: userEvent.setup(), queryClient, ...render(ui, { wrapper }) };
}

/** The whole application at `route`; `queryClient` holds what a test put in the cache beforehand. */
export function renderApp(route = '/', state?: unknown, queryClient?: QueryClient) {
  return renderWithProviders(<Root />, { route, state, queryClient });
}
