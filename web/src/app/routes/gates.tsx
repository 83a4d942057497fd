import type { ReactNode } from 'react';
import { useAccounts, useAppConfig, useCustomer } from '@/api/queries';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { NotFoundPage } from '@/components/not-found-page';
import { Alert } from '@mui/material';
import { isComplianceCustomer } from '../feature-flags';
import { DashboardTabsPage, MissionControlPage, WelcomePage } from './lazy-pages';

/** A route that exists only when a condition (usually a feature flag) holds; otherwise "Page not found". */
export function Gate({ when, children }: { when: boolean; children: ReactNode }) {
  return when ? <>{children}</> : <NotFoundPage />;
}

export function ComplianceGate({ children }: { children: ReactNode }) {
  const config = useAppConfig();
  const customer = useCustomer();
  if (customer.isPending) return <FullPageSpinner />;
  return <Gate when={isComplianceCustomer(config, customer.data?.id)}>{children}</Gate>;
}

/**
 * `/` and `/dashboard`: the welcome page while the tenant has no cloud account, otherwise the
 * dashboard chosen by the flags (Mission Control when missionControlDashboard is on).
 */
export function HomeRoute() {
  const config = useAppConfig();
  const accounts = useAccounts();
  if (accounts.isPending) return <FullPageSpinner />;
  if (accounts.isError) return <Alert severity="error">Failed to load dashboard data</Alert>;
  if (accounts.data.length === 0) return <WelcomePage />;
  return config.features.missionControlDashboard ? <MissionControlPage /> : <DashboardTabsPage />;
}
