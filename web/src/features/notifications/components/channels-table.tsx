import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import {
  Button,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import type { Channel } from '../types';
import { CHANNEL_TYPE_LABELS } from '../utils/labels';
import { DeliveryStatusChip } from '@/components/delivery-status-chip';
import { RelativeTime } from './relative-time';

export interface ChannelsTableProps {
  channels: Channel[];
  canManage: boolean;
  /** Why Send test and Remove are disabled, for their tooltips. */
  disabledReason: string | null;
  /** Channels whose test message is on its way. */
  testing: ReadonlySet<number>;
  onTest: (channel: Channel) => void;
  onRemove: (channel: Channel) => void;
}

export function ChannelsTable({ channels, canManage, disabledReason, testing, onTest, onRemove }: ChannelsTableProps) {
  const reason = canManage ? '' : (disabledReason ?? '');
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Notification channels" sx={{ minWidth: 760 }}>
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Type</TableCell>
            <TableCell>Target</TableCell>
            <TableCell>Last delivery</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {channels.map((channel) => (
            <TableRow key={channel.id} hover data-testid={`channel-${channel.id}`}>
              <TableCell sx={{ fontWeight: 500 }}>{channel.name}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{CHANNEL_TYPE_LABELS[channel.type] ?? channel.type}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{channel.targetHint}</TableCell>
              <TableCell>
                {channel.lastDelivery ? (
                  <Stack direction="row" spacing={1} alignItems="center">
                    <RelativeTime value={channel.lastDelivery.at} />
                    <DeliveryStatusChip status={channel.lastDelivery.status} tooltip={channel.lastDelivery.error} />
                  </Stack>
                ) : (
                  <Typography component="span" color="text.secondary">
                    Never
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={reason}>
                  <span>
                    <Button
                      size="small"
                      variant="outlined"
                      startIcon={<SendOutlinedIcon />}
                      aria-label={`Send test to ${channel.name}`}
                      onClick={() => onTest(channel)}
                      disabled={!canManage}
                      loading={testing.has(channel.id)}
                    >
                      Send test
                    </Button>
                  </span>
                </Tooltip>
                <Tooltip title={reason || 'Remove'}>
                  <span>
                    <IconButton
                      aria-label={`Remove ${channel.name}`}
                      onClick={() => onRemove(channel)}
                      disabled={!canManage}
                      sx={{ ml: 1 }}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
