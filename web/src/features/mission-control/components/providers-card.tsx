import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import { formatCurrency, formatShare } from '@/lib/cost';
import { NO_PROVIDER_DATA } from '../constants';
import { providerShares } from '../utils/spend-cards';
import { DashboardCard } from './dashboard-card';
import { SpendCardContent, type SpendState } from './spend-card-content';

/** Cloud Providers: each provider's spend and share, bars at least 2 % wide (§9). */
export function ProvidersCard({ spend }: { spend: SpendState }) {
  return (
    <DashboardCard title="Cloud Providers">
      <SpendCardContent spend={spend}>
        {(data) => {
          const shares = providerShares(data.current_period.cloud_provider);
          if (shares.length === 0) {
            return (
              <Typography color="text.secondary" role="status">
                {NO_PROVIDER_DATA}
              </Typography>
            );
          }
          return (
            <Stack component="ul" spacing={1.25} aria-label="Spend by cloud provider" sx={{ m: 0, p: 0, listStyle: 'none' }}>
              {shares.map((share) => (
                <Box component="li" key={share.provider} aria-label={share.provider}>
                  <Stack direction="row" justifyContent="space-between" spacing={1}>
                    <Typography variant="body2" fontWeight={600}>
                      {share.provider}
                    </Typography>
                    <Typography variant="body2">
                      {formatCurrency(share.amount, { decimals: 0 })}{' '}
                      <Typography component="span" variant="body2" color="text.secondary">
                        ({formatShare(share.share)})
                      </Typography>
                    </Typography>
                  </Stack>
                  <LinearProgress
                    variant="determinate"
                    value={share.width}
                    aria-label={`${share.provider} share`}
                    sx={{ height: 6, borderRadius: 3, mt: 0.5 }}
                  />
                </Box>
              ))}
            </Stack>
          );
        }}
      </SpendCardContent>
    </DashboardCard>
  );
}
