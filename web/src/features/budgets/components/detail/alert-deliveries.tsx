import { Box, Chip, Stack, Tooltip, Typography, type ChipProps } from '@mui/material';
import type { AlertDeliveryStatus, BudgetAlertDelivery } from '../../model/types';

// The same words and colours as the Notifications page's deliveries (features do not import
// each other, so the budget detail keeps its own four-entry map).
const STATUS_LABELS: Record<AlertDeliveryStatus, string> = {
  delivered: 'Delivered',
  retrying: 'Retrying',
  pending: 'Pending',
  failed: 'Failed',
};

const STATUS_COLORS: Record<AlertDeliveryStatus, ChipProps['color']> = {
  delivered: 'success',
  retrying: 'warning',
  pending: 'default',
  failed: 'error',
};

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
          <DeliveryChip delivery={delivery} />
        </Box>
      ))}
    </Stack>
  );
}

function DeliveryChip({ delivery }: { delivery: BudgetAlertDelivery }) {
  const error = delivery.error ?? undefined;
  const chip = (
    <Chip
      size="small"
      variant="outlined"
      label={STATUS_LABELS[delivery.status]}
      color={STATUS_COLORS[delivery.status]}
      // Focusable when it has an error to tell, so that keyboard users reach the tooltip too.
      tabIndex={error ? 0 : undefined}
    />
  );
  if (!error) return chip;
  return (
    <Tooltip title={error} describeChild>
      {chip}
    </Tooltip>
  );
}
