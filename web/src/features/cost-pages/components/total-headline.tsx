import { Chip, Stack, Typography } from '@mui/material';
import { formatCurrency, formatPercent, formatRangeLabel, type CostSummary, type TimeRange } from '@/lib/cost';

/** Total cost of the period with its change against the period of the same length before. */
export function TotalHeadline({ summary, range }: { summary: CostSummary; range: TimeRange }) {
  const change = summary.accrued_change;
  return (
    <Stack role="group" aria-label="Total cost" spacing={0.5}>
      <Typography variant="body2" color="text.secondary">
        Total cost
      </Typography>
      <Stack direction="row" spacing={1.5} alignItems="center" flexWrap="wrap" useFlexGap>
        <Typography variant="h4" component="p" sx={{ fontWeight: 600 }}>
          {formatCurrency(summary.accrued_cost)}
        </Typography>
        <Chip
          size="small"
          color={change === null || change === undefined ? 'default' : change > 0 ? 'warning' : 'success'}
          label={`${formatPercent(change)} vs previous period (${formatCurrency(summary.previous_cost)})`}
        />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {formatRangeLabel(range)}
      </Typography>
    </Stack>
  );
}
