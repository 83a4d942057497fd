import { lazy } from 'react';

// Route-level code splitting: nothing below loads before the user is signed in.
export const WelcomePage = lazy(() => import('@/features/welcome').then((m) => ({ default: m.WelcomePage })));
export const UserManagementPage = lazy(() =>
  import('@/features/users').then((m) => ({ default: m.UserManagementPage })),
);
export const BillingDataPage = lazy(() =>
  import('@/features/billing-data').then((m) => ({ default: m.BillingDataPage })),
);
export const ComingSoonPage = lazy(() => import('@/features/coming-soon').then((m) => ({ default: m.ComingSoonPage })));
