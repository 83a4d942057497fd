import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { usePublicConfig } from '@/api/queries';
import { useSession } from '@/api/use-session';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { AuthPage } from '@/features/auth/components/auth-page';
import { loadSignedInApp } from './routes/preload';

// The sign-in page is plain React (no MUI, no app shell); everything behind sign-in, and MUI with
// it, comes in chunks of its own (docs/ANALYST-FLOW.md, "Speed over a real network").
const SignedInApp = lazy(loadSignedInApp);
const InvitationPage = lazy(async () => {
  const [{ AppTheme }, { InvitationPage: Page }] = await Promise.all([
    import('./app-theme'),
    import('@/features/auth/components/invitation-page'),
  ]);
  return {
    default: () => (
      <AppTheme>
        <Page />
      </AppTheme>
    ),
  };
});

/** Signed in: the application; otherwise the sign-in page for any route (and the invitation page). */
export function Root() {
  const session = useSession();
  const config = usePublicConfig();
  if (config.isPending) return <FullPageSpinner />;
  return (
    <Suspense fallback={<FullPageSpinner />}>
      {session ? (
        <SignedInApp />
      ) : (
        <Routes>
          <Route path="/invite/:token" element={<InvitationPage />} />
          <Route path="*" element={<AuthPage />} />
        </Routes>
      )}
    </Suspense>
  );
}
