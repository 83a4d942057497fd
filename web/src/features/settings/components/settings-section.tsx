import { Box } from '@mui/material';
import type { ReactNode } from 'react';
import { WelcomeBreadcrumb } from '@/components/welcome-breadcrumb';

/** Settings pages' frame: the "Welcome > page name" breadcrumb when arriving from the welcome page. */
export function SettingsSection({ pageName, children }: { pageName?: string; children: ReactNode }) {
  return (
    <Box>
      {pageName ? <WelcomeBreadcrumb pageName={pageName} /> : null}
      {children}
    </Box>
  );
}

/** Breadcrumb names of the settings pages (spec 1 §2.1). */
export const SETTINGS_PAGE_NAMES = {
  integrations: 'Cloud Accounts',
  users: 'User Management',
  'aws-connect': 'Connect AWS',
  'gcp-connect': 'Connect GCP',
  'azure-connect': 'Connect Azure',
} as const;
