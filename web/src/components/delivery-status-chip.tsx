import { Chip, Tooltip, type ChipProps } from '@mui/material';
import type { components } from '@/api/schema.gen';

/** Where a notification's delivery to one channel stands (the server's `DeliveryStatus`). */
export type DeliveryStatus = components['schemas']['DeliveryStatus'];

const LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
};

const COLORS: Record<DeliveryStatus, ChipProps['color']> = {
  pending: 'default',
  retrying: 'warning',
  delivered: 'success',
  failed: 'error',
};

export interface DeliveryStatusChipProps {
  status: DeliveryStatus;
  /** Shown on hover and focus (the delivery's error, the next attempt). */
  tooltip?: string | null;
}

/** A delivery's status, the same on the Notifications page and in a budget's alert history. */
export function DeliveryStatusChip({ status, tooltip }: DeliveryStatusChipProps) {
  const chip = (
    <Chip
      size="small"
      variant="outlined"
      label={LABELS[status]}
      color={COLORS[status]}
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
