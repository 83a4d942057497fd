import { Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { Delivery } from '../types';
import { formatDateTimeUtc, formatRelative } from '../utils/time';
import { DeliveryStatusChip } from '@/components/delivery-status-chip';
import { RelativeTime } from './relative-time';

/** What the status chip adds on hover: when it was delivered, or when it is tried next. */
function statusDetail(delivery: Delivery): string | null {
  if (delivery.status === 'delivered' && delivery.deliveredAt) return `Delivered ${formatDateTimeUtc(delivery.deliveredAt)}`;
  if ((delivery.status === 'retrying' || delivery.status === 'pending') && delivery.nextAttemptAt) {
    return `Next attempt ${formatRelative(delivery.nextAttemptAt)}`;
  }
  return null;
}

export function DeliveriesTable({ deliveries }: { deliveries: Delivery[] }) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Recent deliveries" size="small" sx={{ minWidth: 760 }}>
        <TableHead>
          <TableRow>
            <TableCell>When</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Channel</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Attempts</TableCell>
            <TableCell>Last error</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {deliveries.map((delivery) => (
            <TableRow key={delivery.id} data-testid={`delivery-${delivery.id}`}>
              <TableCell>
                <RelativeTime value={delivery.createdAt} />
              </TableCell>
              <TableCell>{delivery.title}</TableCell>
              <TableCell>{delivery.channelName}</TableCell>
              <TableCell>
                <DeliveryStatusChip status={delivery.status} tooltip={statusDetail(delivery)} />
              </TableCell>
              <TableCell align="right">{delivery.attempts}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 360 }}>
                {delivery.lastError ?? (
                  <Typography component="span" color="text.secondary">
                    —
                  </Typography>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
