import { Alert, Stack } from '@mui/material';
import { formatCurrency, formatShare } from '@/lib/cost';
import { categoryInsights, type CategorySummary } from '../utils/category-summary';

/** One warning per category whose spend grew by more than 25 % on the previous period (§9). */
export function CategoryInsights({ summaries }: { summaries: CategorySummary[] }) {
  const insights = categoryInsights(summaries);
  if (insights.length === 0) return null;
  return (
    <Stack spacing={1} aria-label="Insights" component="ul" sx={{ m: 0, p: 0, listStyle: 'none', mb: 2 }}>
      {insights.map((summary) => (
        <Alert key={summary.category} component="li" role="listitem" severity="warning" variant="outlined" sx={{ py: 0 }}>
          {summary.category} spend is up {formatShare(summary.change ?? 0)} on the previous period:{' '}
          {formatCurrency(summary.amount, { decimals: 0 })} against {formatCurrency(summary.previousAmount, { decimals: 0 })}.
        </Alert>
      ))}
    </Stack>
  );
}
