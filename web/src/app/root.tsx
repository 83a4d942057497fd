import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { usePublicConfig } from '@/api/queries';
import { useSession } from '@/api/use-session';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { AuthPage } from '@/features/auth/components/auth-page';

const AppRoutes = lazy(() => import('./routes/app-routes').then((m) => ({ default: m.AppRoutes })));
const InvitationPage = lazy(() =>
  import('@/features/auth/components/invitation-page').then((m) => ({ default: m.InvitationPage })),
);

/** Signed in: the application; otherwise the sign-in page for any route (and the invitation page). */
export function Root() {
  const session = useSession();
  const config = usePublicConfig();
  if (config.isPending) return <FullPageSpinner />;
  return (
    <Suspense fallback={<FullPageSpinner />}>
      {session ? (
        <AppRoutes />
      ) : (
        <Routes>
          <Route path="/invite/:token" element={<InvitationPage />} />
          <Route path="*" element={<AuthPage />} />
        </Routes>
      )}
    </Suspense>
  );
}
