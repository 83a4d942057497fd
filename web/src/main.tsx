import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/providers';
import { Root } from './app/root';
import { preloadForReload } from './app/routes/preload';
import './app/base.css';

preloadForReload(window.location.pathname);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AppProviders>
      <BrowserRouter>
        <Root />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
