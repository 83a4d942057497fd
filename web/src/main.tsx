import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/providers';
import { Root } from './app/root';

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AppProviders>
      <BrowserRouter>
        <Root />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
