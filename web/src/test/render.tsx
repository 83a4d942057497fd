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

export function renderWithProviders(ui: ReactElement, { route = '/', state }: { route?: string; state?: unknown } = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
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

export function renderApp(route = '/', state?: unknown) {
  return renderWithProviders(<Root />, { route, state });
}
