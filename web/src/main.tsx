import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { restoreSession } from './api/auth-refresh';
import { publicConfigQuery } from './api/queries';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { Root } from './app/root';
import { preloadForReload } from './app/routes/preload';
import './app/base.css';

// The first page waits for the public config and, after a reload, for the restored session: ask
// for both, and fetch the chunks and first answers of a signed-in page, before React's first
// render.
const queryClient = createQueryClient();
void queryClient.prefetchQuery(publicConfigQuery());
preloadForReload(window.location.pathname, queryClient, restoreSession());

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <Root />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
