import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import { formatCurrency } from '@/lib/cost';
import { largestAmount, serviceListLabel, type CategorySummary } from '../utils/category-summary';
import { barWidth } from '../utils/spend-cards';
import { CategoryInsights } from './category-insights';
import { ChangeLabel } from './change-label';

/** Each category with spend: amount, change, a bar against the largest, its first services. */
export function CategoryOverview({ summaries }: { summaries: CategorySummary[] }) {
  const largest = largestAmount(summaries);
  return (
    <>
      <CategoryInsights summaries={summaries} />
      <Stack component="ul" spacing={1.5} aria-label="Service categories" sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {summaries.map((summary) => (
          <Box component="li" key={summary.category} aria-label={summary.category}>
            <Stack direction="row" spacing={1} alignItems="baseline" justifyContent="space-between">
              <Typography variant="body2" fontWeight={600}>
                {summary.category}
              </Typography>
              <Stack direction="row" spacing={1} alignItems="baseline">
                <Typography variant="body2">{formatCurrency(summary.amount, { decimals: 0 })}</Typography>
                <ChangeLabel change={summary.change} />
              </Stack>
            </Stack>
            <LinearProgress
              variant="determinate"
              value={largest > 0 ? barWidth((summary.amount / largest) * 100) : 0}
              aria-label={`${summary.category} spend`}
              sx={{ height: 6, borderRadius: 3, my: 0.5 }}
            />
            <Typography variant="caption" color="text.secondary">
              {serviceListLabel(summary.services)}
            </Typography>
          </Box>
        ))}
      </Stack>
    </>
  );
}
