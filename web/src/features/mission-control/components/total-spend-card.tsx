import TrendingDownIcon from '@mui/icons-material/TrendingDown';
import TrendingFlatIcon from '@mui/icons-material/TrendingFlat';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Stack, Typography } from '@mui/material';
import { comparedWithLabel, formatComparedRange, formatCurrency, formatPercent, type SpendResponse } from '@/lib/cost';
import { DashboardCard } from './dashboard-card';
import { SpendCardContent, type SpendState } from './spend-card-content';

function Change({ data }: { data: SpendResponse }) {
  const percent = data.comparison.percent_change;
  const previous = data.previous_period;
  const period = formatComparedRange(previous);
  if (percent === null || percent === undefined) {
    return (
      <Typography variant="body2" color="text.secondary">
        No spend in the previous period ({period})
      </Typography>
    );
  }
  // More spend is bad news (red), less is good news (green).
  const rounded = Math.round(percent * 10) / 10;
  const Icon = rounded > 0 ? TrendingUpIcon : rounded < 0 ? TrendingDownIcon : TrendingFlatIcon;
  const color = rounded > 0 ? 'error.main' : rounded < 0 ? 'success.main' : 'text.secondary';
  return (
    <Stack spacing={0.25}>
      <Stack direction="row" spacing={0.5} alignItems="center" sx={{ color }}>
        <Icon fontSize="small" aria-hidden />
        <Typography variant="body2" fontWeight={600} color="inherit">
          {formatPercent(percent)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          vs {formatCurrency(previous.total_amount, { decimals: 0, currency: data.currency })} previous period
        </Typography>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {comparedWithLabel(previous)}
      </Typography>
    </Stack>
  );
}

/** Total Spend: the period's total and its change on the previous period of the same length. */
export function TotalSpendCard({ spend }: { spend: SpendState }) {
  return (
    <DashboardCard title="Total Spend">
      <SpendCardContent spend={spend}>
        {(data) => (
          <Stack spacing={1}>
            <Typography variant="h4" component="p" fontWeight={600}>
              {formatCurrency(data.current_period.total_amount, { decimals: 0, currency: data.currency })}
            </Typography>
            <Change data={data} />
          </Stack>
        )}
      </SpendCardContent>
    </DashboardCard>
  );
}
