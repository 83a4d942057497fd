import { Box, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { InventoryExplorer } from '@/components/inventory';
import { PageHeader } from '@/components/page-header';
import { DashboardOverview } from './dashboard-overview';

type DashboardTab = 'dashboard' | 'resources';

/** `/` and `/dashboard` when Mission Control is off (spec 1 §2.6): tabs Dashboard and Resources. */
export function DashboardTabsPage() {
  const [tab, setTab] = useState<DashboardTab>('dashboard');
  return (
    <>
      <PageHeader title="Dashboard" />
      <Tabs value={tab} onChange={(_, value: DashboardTab) => setTab(value)} aria-label="Dashboard tabs" sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="dashboard" label="Dashboard" id="dashboard-tab-dashboard" aria-controls="dashboard-tabpanel-dashboard" />
        <Tab value="resources" label="Resources" id="dashboard-tab-resources" aria-controls="dashboard-tabpanel-resources" />
      </Tabs>
      <Box role="tabpanel" id={`dashboard-tabpanel-${tab}`} aria-labelledby={`dashboard-tab-${tab}`}>
        {tab === 'dashboard' ? (
          <DashboardOverview />
        ) : (
          <InventoryExplorer />
        )}
      </Box>
    </>
  );
}
