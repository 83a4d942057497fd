import { Box, Stack, Typography } from '@mui/material';
import { DeliveryStatusChip } from '@/components/delivery-status-chip';
import type { BudgetAlertDelivery } from '../../model/types';

export interface AlertDeliveriesProps {
  deliveries: readonly BudgetAlertDelivery[];
  /** Names the group for assistive technology, e.g. "Deliveries of the 75% alert". */
  label: string;
}

/**
 * How one alert-history entry went out: each channel with the state of its delivery, the error
 * of the latest attempt on hover and focus, so that a delivery that finally failed shows here.
 */
export function AlertDeliveries({ deliveries, label }: AlertDeliveriesProps) {
  if (deliveries.length === 0) return null;
  return (
    <Stack role="group" aria-label={label} direction="row" flexWrap="wrap" useFlexGap spacing={1} sx={{ mt: 0.5 }}>
      {deliveries.map((delivery, index) => (
        <Box key={`${delivery.channelName}-${index}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          <Typography component="span" variant="body2" color="text.secondary">
            {delivery.channelName}
          </Typography>
          <DeliveryStatusChip status={delivery.status} tooltip={delivery.error} />
        </Box>
      ))}
    </Stack>
  );
}
