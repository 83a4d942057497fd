import { CssBaseline, ThemeProvider } from '@mui/material';
import type { ReactNode } from 'react';
import { theme } from './theme';

/**
 * MUI's theme and baseline for the pages built with MUI (every page behind sign-in, the
 * invitation page). Loaded with them, not with the sign-in page (app/root.tsx).
 */
export function AppTheme({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
