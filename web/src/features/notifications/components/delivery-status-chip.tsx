import { Chip, Tooltip } from '@mui/material';
import type { DeliveryStatus } from '../types';
import { DELIVERY_STATUS_COLORS, DELIVERY_STATUS_LABELS } from '../utils/labels';

export interface DeliveryStatusChipProps {
  status: DeliveryStatus;
  /** Shown on hover and focus (the delivery's error, the next attempt). */
  tooltip?: string | null;
}

export function DeliveryStatusChip({ status, tooltip }: DeliveryStatusChipProps) {
  const chip = (
    <Chip
      size="small"
      variant="outlined"
      label={DELIVERY_STATUS_LABELS[status]}
      color={DELIVERY_STATUS_COLORS[status]}
      // Focusable when it has more to say, so that keyboard users reach the tooltip too.
      tabIndex={tooltip ? 0 : undefined}
    />
  );
  if (!tooltip) return chip;
  return (
    <Tooltip title={tooltip} describeChild>
      {chip}
    </Tooltip>
  );
}
