import { Alert, Box, Grid, Stack } from '@mui/material';
import { useState } from 'react';
import { useAppConfig } from '@/api/queries';
import { PageHeader } from '@/components/page-header';
import { CurrencyNotice, TimeRangeSelector, WidgetBoundary } from '@/components/cost';
import { FilterPanel, FiltersButton } from '@/components/cost-filters';
import { useDashboardSpend } from '../api/use-dashboard-spend';
import { PAGE_SUBTITLE, PAGE_TITLE } from '../constants';
import { useDashboardFilters } from '../hooks/use-dashboard-filters';
import { useMissionControlRange } from '../hooks/use-mission-control-range';
import { AnomaliesCard } from './anomalies-card';
import { BudgetOverviewSection } from './budget-overview-section';
import { ServiceCategoriesSection } from './service-categories-section';
import { SpendCards } from './spend-cards';
import { TopMoversCard } from './top-movers-card';

/** `/` and `/dashboard` (flag missionControlDashboard): the spend dashboard of spec 1 §2.10. */
export function MissionControlPage() {
  const { support_email: supportEmail } = useAppConfig();
  const [range, setRange] = useMissionControlRange();
  const filters = useDashboardFilters();
  const [panelOpen, setPanelOpen] = useState(false);
  const spend = useDashboardSpend(range, filters.groups);

  return (
    <Box>
      <PageHeader
        title={PAGE_TITLE}
        subtitle={PAGE_SUBTITLE}
        actions={
          <Stack direction="row" spacing={1.5} alignItems="center">
            <TimeRangeSelector value={range} onChange={setRange} />
            <FiltersButton count={filters.filters.length} onClick={() => setPanelOpen(true)} />
          </Stack>
        }
      />
      <FilterPanel
        open={panelOpen}
        onClose={() => setPanelOpen(false)}
        applied={filters.filters}
        onApply={filters.setFilters}
        timeRange={range}
        module="mission_control"
      />
      {filters.warnings.length > 0 ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {filters.warnings.join('; ')}
        </Alert>
      ) : null}
      <CurrencyNotice answer={spend.data} />
      <SpendCards spend={{ data: spend.data, error: spend.error, onRetry: () => void spend.refetch() }} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 5 }}>
          <WidgetBoundary component="Budget Overview" supportEmail={supportEmail}>
            <BudgetOverviewSection />
          </WidgetBoundary>
        </Grid>
        <Grid size={{ xs: 12, lg: 7 }}>
          <WidgetBoundary component="Cost by Service Category" supportEmail={supportEmail}>
            <ServiceCategoriesSection range={range} filters={filters.groups} />
          </WidgetBoundary>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <WidgetBoundary component="Anomalies" supportEmail={supportEmail}>
            <AnomaliesCard />
          </WidgetBoundary>
        </Grid>
        <Grid size={{ xs: 12, lg: 7 }}>
          <WidgetBoundary component="Top movers" supportEmail={supportEmail}>
            <TopMoversCard range={range} filters={filters.groups} />
          </WidgetBoundary>
        </Grid>
      </Grid>
    </Box>
  );
}
