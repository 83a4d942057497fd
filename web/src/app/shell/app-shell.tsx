import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, Drawer, IconButton, Toolbar, useMediaQuery, useTheme } from '@mui/material';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAccounts, useAppConfig, useCustomer, useMe } from '@/api/queries';
import { preloadCostChart } from '@/components/cost/chart-loader';
import { ErrorBoundary } from '@/components/error-boundary';
import { DiscoverButton } from '@/components/inventory/discover-button';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { Logo } from '@/components/logo';
import { useSignOut } from '@/features/auth';
import { navigationFor } from '../navigation';
import { TrialModal } from '../trial-modal';
import { DemoNotice } from './demo-notice';
import { NavMenu } from './nav-menu';
import { UserMenu } from './user-menu';

const DRAWER_WIDTH = 240;

/** Header with logo and user menu, navigation menu at the side, the page in the middle. */
export function AppShell() {
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'));
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();
  const config = useAppConfig();
  const me = useMe();
  const customer = useCustomer();
  const accounts = useAccounts();
  const signOut = useSignOut();

  const hasAccounts = (accounts.data?.length ?? 0) > 0;
  const groups = navigationFor({
    flags: config.features,
    customerId: customer.data?.id,
    complianceCustomerIds: config.compliance_customer_ids,
    hasAccounts,
  });
  // Signed in with cost data: fetch the chart library while the browser is idle, so the first
  // cost chart does not wait for it (issue 4: first chart within 1 s of navigation).
  useEffect(() => {
    if (!hasAccounts) return undefined;
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => preloadCostChart());
    return () => cancel(handle);
  }, [hasAccounts]);
  const menu = <NavMenu groups={groups} loading={accounts.isPending} onNavigate={() => setMobileOpen(false)} />;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar
        position="fixed"
        color="inherit"
        sx={{ zIndex: (t) => t.zIndex.drawer + 1, borderBottom: 1, borderColor: 'divider' }}
      >
        <Toolbar sx={{ gap: 1 }}>
          {desktop ? null : (
            <IconButton edge="start" aria-label="Open navigation menu" onClick={() => setMobileOpen(true)}>
              <MenuIcon />
            </IconButton>
          )}
          <Logo />
          <Box sx={{ flex: 1 }} />
          {config.features.DiscoverJobTrigger ? <DiscoverButton compact /> : null}
          <UserMenu user={me.data} onSignOut={() => signOut.mutate()} />
        </Toolbar>
      </AppBar>
      <Drawer
        variant={desktop ? 'permanent' : 'temporary'}
        open={desktop || mobileOpen}
        onClose={() => setMobileOpen(false)}
        ModalProps={{ keepMounted: true }}
        sx={{
          width: DRAWER_WIDTH,
          flexShrink: 0,
          '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box', borderRight: 1, borderColor: 'divider' },
        }}
      >
        <Toolbar />
        {menu}
      </Drawer>
      <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 2, sm: 3, md: 4 } }}>
        <Toolbar />
        <Box sx={{ maxWidth: 1280, mx: 'auto' }}>
          <DemoNotice />
          <ErrorBoundary component="page" resetKey={location.pathname} supportEmail={config.support_email || undefined}>
            <Suspense fallback={<FullPageSpinner />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </Box>
      </Box>
      <TrialModal customer={customer.data} supportEmail={config.support_email || undefined} />
    </Box>
  );
}
