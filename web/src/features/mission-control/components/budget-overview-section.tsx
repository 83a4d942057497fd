import { Typography } from '@mui/material';
import { useState } from 'react';
import { NO_ACTIVE_BUDGETS } from '../constants';
import { DashboardCard } from './dashboard-card';
import { ViewToggle, type SectionView } from './view-toggle';

/**
 * The budget overview (§2.10). Budgets arrive with a later capability: until then nothing is
 * asked and both views say there are no active budgets. The health rules the list will use are
 * in utils/budget-health.ts.
 */
export function BudgetOverviewSection() {
  const [view, setView] = useState<SectionView>('overview');
  return (
    <DashboardCard title="Budget Overview" action={<ViewToggle label="Budget view" value={view} onChange={setView} />}>
      <Typography color="text.secondary" role="status">
        {NO_ACTIVE_BUDGETS}
      </Typography>
    </DashboardCard>
  );
}
