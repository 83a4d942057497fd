import type { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';

// Route-level code splitting: nothing below loads before the user is signed in.
export const WelcomePage = lazy(() => import('@/features/welcome').then((m) => ({ default: m.WelcomePage })));
export const UserManagementPage = lazy(() =>
  import('@/features/users').then((m) => ({ default: m.UserManagementPage })),
);
export const BillingDataPage = lazy(() =>
  import('@/features/billing-data').then((m) => ({ default: m.BillingDataPage })),
);
export const CurrencySettingsPage = lazy(() =>
  import('@/features/currency').then((m) => ({ default: m.CurrencySettingsPage })),
);
// Cloud accounts (issue 13).
export const CloudAccountsPage = lazy(() =>
  import('@/features/cloud-accounts').then((m) => ({ default: m.CloudAccountsPage })),
);
export const AwsConnectPage = lazy(() => import('@/features/cloud-accounts').then((m) => ({ default: m.AwsConnectPage })));
export const GcpConnectPage = lazy(() => import('@/features/cloud-accounts').then((m) => ({ default: m.GcpConnectPage })));
export const AzureConnectPage = lazy(() =>
  import('@/features/cloud-accounts').then((m) => ({ default: m.AzureConnectPage })),
);
// Notification channels (issue 15).
export const NotificationsPage = lazy(() =>
  import('@/features/notifications').then((m) => ({ default: m.NotificationsPage })),
);
// The signed-in user's scheduled digest (issue 15).
export const DigestPage = lazy(() => import('@/features/notifications').then((m) => ({ default: m.DigestPage })));
// Microsoft Teams connect (spec 2).
export const TeamsConnectPage = lazy(() => import('@/features/teams').then((m) => ({ default: m.TeamsConnectPage })));
export const TeamsOAuthCallbackPage = lazy(() =>
  import('@/features/teams').then((m) => ({ default: m.TeamsOAuthCallbackPage })),
);

// Cost screens (docs/WEB-COST.md): only these chunks pull in the chart library.
export const MissionControlPage = lazy(() =>
  import('@/features/mission-control').then((m) => ({ default: m.MissionControlPage })),
);
export const AdvancedCostPage = lazy(() => import('@/features/cost-analysis').then((m) => ({ default: m.AdvancedCostPage })));
// Compare two periods (issue 16).
export const ComparePage = lazy(() => import('@/features/compare').then((m) => ({ default: m.ComparePage })));
// Cost Query: spec 2's cost filter builder over POST /v1/query (issue 16).
export const CostQueryPage = lazy(() => import('@/features/cost-query').then((m) => ({ default: m.CostQueryPage })));
export const SavedReportsPage = lazy(() => import('@/features/cost-analysis').then((m) => ({ default: m.SavedReportsPage })));
export const BasicCostPage = lazy(() => import('@/features/cost-pages').then((m) => ({ default: m.BasicCostPage })));
export const CostTabsPage = lazy(() => import('@/features/cost-pages').then((m) => ({ default: m.CostTabsPage })));
export const CostVisualisationPage = lazy(() =>
  import('@/features/cost-pages').then((m) => ({ default: m.CostVisualisationPage })),
);
export const DashboardTabsPage = lazy(() => import('@/features/cost-pages').then((m) => ({ default: m.DashboardTabsPage })));
export const ManagedAccountsPage = lazy(() =>
  import('@/features/cost-pages').then((m) => ({ default: m.ManagedAccountsPage })),
);

// Budget screens (docs/WEB-BUDGETS.md).
export const BudgetsDashboardPage = lazy(() =>
  import('@/features/budgets').then((m) => ({ default: m.BudgetsDashboardPage })),
);
export const BudgetDetailPage = lazy(() => import('@/features/budgets').then((m) => ({ default: m.BudgetDetailPage })));
export const BudgetWizardPage = lazy(() => import('@/features/budgets').then((m) => ({ default: m.BudgetWizardPage })));

// Anomalies (docs/ANOMALIES.md, stop 25).
export const AnomaliesPage = lazy(() => import('@/features/anomalies').then((m) => ({ default: m.AnomaliesPage })));
export const AnomalyDetailPage = lazy(() => import('@/features/anomalies').then((m) => ({ default: m.AnomalyDetailPage })));

// Resource inventory and tags (issue 14).
export const InventoryPage = lazy(() => import('@/features/inventory').then((m) => ({ default: m.InventoryPage })));
export const TagsPage = lazy(() => import('@/features/tags').then((m) => ({ default: m.TagsPage })));

// IAM and Compliance tabs (issue 14, built natively on the discovered resources).
export const IamPage = lazy(() => import('@/features/findings').then((m) => ({ default: m.IamPage })));
export const CompliancePage = lazy(() => import('@/features/findings').then((m) => ({ default: m.CompliancePage })));

/**
 * The chunks each page needs, by address, for the addresses a signed-in user lands on (a reload,
 * a bookmark). `preloadPageOf` starts fetching them before the session is restored
 * (app/routes/preload.ts) and answers whether the page draws a cost chart.
 */
const LANDING_PAGES: { path: RegExp; load: () => Promise<unknown>; chart: boolean }[] = [
  { path: /^\/(dashboard\/?)?$/, load: () => import('@/features/mission-control'), chart: true },
  { path: /^\/cost(\/(basic|analysis|saving))?\/?$/, load: () => import('@/features/cost-pages'), chart: true },
  {
    path: /^\/cost\/advanced\/?$/,
    load: () => Promise.all([import('@/features/cost-analysis'), import('@/features/cost-pages')]),
    chart: true,
  },
  { path: /^\/cost\/compare\/?$/, load: () => import('@/features/compare'), chart: true },
  { path: /^\/cost\/query\/?$/, load: () => import('@/features/cost-query'), chart: false },
  { path: /^\/budgets(\/|$)/, load: () => import('@/features/budgets'), chart: true },
  { path: /^\/anomalies(\/|$)/, load: () => import('@/features/anomalies'), chart: true },
  { path: /^\/inventory\/?$/, load: () => import('@/features/inventory'), chart: false },
  { path: /^\/tags\/?$/, load: () => import('@/features/tags'), chart: false },
];

/**
 * The answers a landing page asks for first, by address: fetched into the cache as soon as the
 * session is restored (app/routes/preload.ts), so the page finds them when it renders instead of
 * asking then. Each loader is a small module of its own (not the page's chunk).
 */
const LANDING_DATA: { path: RegExp; load: () => Promise<(queryClient: QueryClient) => void> }[] = [
  { path: /^\/cost\/basic\/?$/, load: () => import('@/features/cost-pages/prefetch').then((m) => m.prefetchBasicCost) },
];

/** Fetches the first answers of the page at `pathname` once `session` is restored (if it is). */
export function prefetchDataOf(pathname: string, queryClient: QueryClient, session: Promise<unknown>): void {
  const page = LANDING_DATA.find(({ path }) => path.test(pathname));
  if (!page) return;
  void Promise.all([session, page.load()])
    .then(([restored, prefetch]) => {
      if (restored) prefetch(queryClient);
    })
    .catch(() => undefined);
}

export function preloadPageOf(pathname: string): boolean {
  const page = LANDING_PAGES.find(({ path }) => path.test(pathname));
  if (!page) return false;
  void page.load().catch(() => undefined);
  return page.chart;
}
