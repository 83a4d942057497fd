import { LinearProgress, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { CostErrorAlert } from '@/components/cost';
import { comparedWithLabel, type ApiFilterGroup, type TimeRange } from '@/lib/cost';
import { useServiceCategories } from '../api/use-service-categories';
import { CATEGORIES_ERROR, NO_CATEGORY_DATA } from '../constants';
import { CategoryDetail } from './category-detail';
import { CategoryOverview } from './category-overview';
import { DashboardCard } from './dashboard-card';
import { ViewToggle, type SectionView } from './view-toggle';

export interface ServiceCategoriesSectionProps {
  range: TimeRange;
  filters: ApiFilterGroup[];
}

/** Cost by service category, compared with the previous period (§2.10, §9). */
export function ServiceCategoriesSection({ range, filters }: ServiceCategoriesSectionProps) {
  const [view, setView] = useState<SectionView>('overview');
  const categories = useServiceCategories(range, filters);
  const { summaries, error } = categories;

  let body;
  if (error) {
    body = <CostErrorAlert title={CATEGORIES_ERROR} error={error} onRetry={categories.refetch} />;
  } else if (!summaries) {
    body = (
      <Stack spacing={1} aria-busy="true" aria-label="Loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={36} />
        ))}
      </Stack>
    );
  } else if (summaries.length === 0) {
    body = (
      <Typography color="text.secondary" role="status">
        {NO_CATEGORY_DATA}
      </Typography>
    );
  } else {
    body = view === 'overview' ? <CategoryOverview summaries={summaries} /> : <CategoryDetail summaries={summaries} />;
  }

  return (
    <DashboardCard
      title="Cost by Service Category"
      action={<ViewToggle label="Service category view" value={view} onChange={setView} />}
    >
      {categories.previousPeriod ? (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1.5 }}>
          Changes {comparedWithLabel(categories.previousPeriod)}
        </Typography>
      ) : null}
      {categories.isFetching && summaries ? <LinearProgress aria-label="Updating" sx={{ mb: 1 }} /> : null}
      {body}
    </DashboardCard>
  );
}
