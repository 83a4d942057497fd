import { Stack, Typography } from '@mui/material';
import { comparedWithLabel, formatCurrency } from '@/lib/cost';
import { refundsReceived } from '../utils/spend-cards';
import { DashboardCard } from './dashboard-card';
import { SpendCardContent, type SpendState } from './spend-card-content';

/** Refunds Received in the period, and in the previous period of the same length. */
export function RefundsCard({ spend }: { spend: SpendState }) {
  return (
    <DashboardCard title="Refunds Received">
      <SpendCardContent spend={spend}>
        {(data) => (
          <Stack spacing={1}>
            <Typography variant="h4" component="p" fontWeight={600}>
              {formatCurrency(refundsReceived(data.current_period), { decimals: 0, currency: data.currency })}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {formatCurrency(refundsReceived(data.previous_period), { decimals: 0, currency: data.currency })} in the previous period
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {comparedWithLabel(data.previous_period)}
            </Typography>
          </Stack>
        )}
      </SpendCardContent>
    </DashboardCard>
  );
}
