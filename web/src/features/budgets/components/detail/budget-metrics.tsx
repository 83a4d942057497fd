import { Box, Paper, Typography } from '@mui/material';
import { formatPercent, formatUsd } from '../../model/format';

interface Metric {
  /** The upper-case title shown on the tile (spec 2 §2). */
  title: string;
  /** The spec's caption, used as the tile's accessible name. */
  caption: string;
  value: string;
}

export interface BudgetMetricsProps {
  amount: number;
  spent: number;
  percent: number;
  /** The budget answer's currency (USD when absent). */
  currency?: string;
}

/** TOTAL BUDGET, CURRENT SPENT and PERCENTAGE USED. */
export function BudgetMetrics({ amount, spent, percent, currency }: BudgetMetricsProps) {
  const metrics: Metric[] = [
    { title: 'TOTAL BUDGET', caption: 'Total Budget', value: formatUsd(amount, currency) },
    { title: 'CURRENT SPENT', caption: 'Current Spent', value: formatUsd(spent, currency) },
    { title: 'PERCENTAGE USED', caption: 'Percentage Used', value: formatPercent(percent) },
  ];
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
      {metrics.map((metric) => (
        <Paper key={metric.title} variant="outlined" role="group" aria-label={metric.caption} sx={{ p: 2 }}>
          <Typography variant="overline" color="text.secondary" component="p" sx={{ lineHeight: 1.5 }}>
            {metric.title}
          </Typography>
          <Typography variant="h5" component="p">
            {metric.value}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}
