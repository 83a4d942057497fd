import { Box, Tab, Tabs } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { BasicCostPage } from './basic-cost-page';
import { CostSavingPage } from './cost-saving-page';

export type CostTab = 'basic' | 'advanced' | 'saving';

export const COST_TABS: ReadonlyArray<{ value: CostTab; label: string }> = [
  { value: 'basic', label: 'Basic Cost' },
  { value: 'advanced', label: 'Advanced Cost' },
  { value: 'saving', label: 'Cost Saving' },
];

export interface CostTabsPageProps {
  tab: CostTab;
  /** The Advanced Cost tab's content (another feature's page, passed in by the routes). */
  advanced?: ReactNode;
}

/** /cost/{tab} with flag newCostDashboard (spec 1 §2.1): "Cost Analysis" with three tabs. */
export function CostTabsPage({ tab, advanced }: CostTabsPageProps) {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Cost Analysis" />
      <Tabs value={tab} onChange={(_, value: CostTab) => navigate(`/cost/${value}`)} aria-label="Cost Analysis tabs" sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}>
        {COST_TABS.map((item) => (
          <Tab key={item.value} value={item.value} label={item.label} id={`cost-tab-${item.value}`} aria-controls={`cost-tabpanel-${item.value}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`cost-tabpanel-${tab}`} aria-labelledby={`cost-tab-${tab}`}>
        {tab === 'basic' ? <BasicCostPage embedded /> : null}
        {tab === 'saving' ? <CostSavingPage embedded /> : null}
        {tab === 'advanced' ? advanced : null}
      </Box>
    </>
  );
}
