import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Stack, Typography } from '@mui/material';
import { formatDateUtc } from '@/lib/dates';
import { forecastLines } from '../../model/forecast';
import type { Budget } from '../../model/types';

/**
 * The current period's forecast of a budget (the server's `forecast`): 'Forecast: $5,310' and,
 * when the spend is forecast to reach the amount in the period, 'Forecast to exceed 100 % by the
 * 23rd' ('23rd of December' in a Quarterly or Yearly budget; the whole day on hover). Nothing when the server has no forecast (not enough history).
 */
export function BudgetForecast({ budget }: { budget: Pick<Budget, 'forecast' | 'currency' | 'period'> }) {
  const lines = forecastLines(budget);
  if (!lines) return null;
  const exceedsOn = budget.forecast?.exceedsOn;
  return (
    <Stack role="group" aria-label="Forecast" direction="row" spacing={1} alignItems="flex-start">
      <TrendingUpIcon fontSize="small" color={lines.exceeds ? 'error' : 'action'} sx={{ mt: 0.25 }} />
      <Stack spacing={0.25}>
        <Typography variant="body2">{lines.forecast}</Typography>
        {lines.exceeds ? (
          <Typography variant="body2" color="error.main" title={exceedsOn ? formatDateUtc(exceedsOn) : undefined}>
            {lines.exceeds}
          </Typography>
        ) : null}
      </Stack>
    </Stack>
  );
}
