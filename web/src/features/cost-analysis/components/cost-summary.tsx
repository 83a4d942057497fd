import { Box, Stack, Typography } from '@mui/material';
import { formatCurrency, formatPercent, type CostSummary as Summary } from '@/lib/cost';

export interface CostSummaryProps {
  summary: Summary;
  /** The answer's currency (USD when absent). */
  currency?: string;
  periodLabel: string;
}

/** The period's total (`summary.accrued_cost`) and its change against the previous period. */
export function CostSummary({ summary, currency, periodLabel }: CostSummaryProps) {
  const change = summary.accrued_change;
  const color = change === null || change === undefined || change === 0 ? 'text.secondary' : change > 0 ? 'error.main' : 'success.main';
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 4 }} alignItems={{ sm: 'flex-end' }} component="section" aria-label="Cost summary">
      <Box>
        <Typography variant="overline" color="text.secondary" id="total-cost-label">
          Total cost
        </Typography>
        <Typography variant="h4" component="p" aria-labelledby="total-cost-label" data-testid="total-cost">
          {formatCurrency(summary.accrued_cost, { currency })}
        </Typography>
      </Box>
      <Box>
        <Typography variant="overline" color="text.secondary">
          Change vs previous period
        </Typography>
        <Typography sx={{ color }} data-testid="cost-change">
          {change === null || change === undefined
            ? 'No cost in the previous period'
            : `${formatPercent(change)} (previous ${formatCurrency(summary.previous_cost, { currency })})`}
        </Typography>
      </Box>
      <Box>
        <Typography variant="overline" color="text.secondary">
          Period
        </Typography>
        <Typography data-testid="period-label">{periodLabel}</Typography>
      </Box>
    </Stack>
  );
}
