import { LinearProgress, Stack, Typography } from '@mui/material';
import { formatCurrency, formatShare } from '@/lib/cost';
import { barWidth, creditBand, creditsConsumption, type CreditBand } from '../utils/spend-cards';
import { DashboardCard } from './dashboard-card';
import { SpendCardContent, type SpendState } from './spend-card-content';

const BAND_COLOR: Record<CreditBand, 'success' | 'warning' | 'error'> = { green: 'success', amber: 'warning', red: 'error' };

/**
 * Credits Consumption: the credits received in the period as a share of the spend before credits
 * and refunds (the formula is in `creditsConsumption`), with the numbers it comes from.
 */
export function CreditsCard({ spend }: { spend: SpendState }) {
  return (
    <DashboardCard title="Credits Consumption">
      <SpendCardContent spend={spend}>
        {(data) => {
          const { credits, grossSpend, percent } = creditsConsumption(data.current_period);
          if (percent === null) {
            return (
              <Stack spacing={1}>
                <Typography variant="h4" component="p" fontWeight={600}>
                  {formatCurrency(credits, { decimals: 0, currency: data.currency })}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  No spend in this period
                </Typography>
              </Stack>
            );
          }
          return (
            <Stack spacing={1}>
              <Typography variant="h4" component="p" fontWeight={600}>
                {formatShare(percent)}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={barWidth(percent)}
                color={BAND_COLOR[creditBand(percent)]}
                aria-label="Credits consumption"
                sx={{ height: 8, borderRadius: 4 }}
              />
              <Typography variant="body2" color="text.secondary">
                {formatCurrency(credits, { decimals: 0, currency: data.currency })} in credits of {formatCurrency(grossSpend, { decimals: 0, currency: data.currency })} spend before
                credits and refunds
              </Typography>
            </Stack>
          );
        }}
      </SpendCardContent>
    </DashboardCard>
  );
}
