import { Alert, Autocomplete, Stack, TextField, Typography } from '@mui/material';
import { useChannels } from '../../api';
import type { NotificationChannel } from '../../model/types';

export const CHANNEL_PICKER_TEXT = {
  label: 'Notification channels',
  everyChannel: 'None chosen: the alerts go to every channel.',
  chosenOnly: 'The alerts go only to the chosen channels.',
  noChannels: 'No notification channels yet: the alerts are e-mailed to the owners and admins.',
  loadFailed: 'Failed to load notification channels. The budget keeps its channels.',
} as const;

export interface ChannelPickerProps {
  /** The chosen channel ids; empty: every channel. */
  value: readonly number[];
  onChange(channelIds: number[]): void;
}

/**
 * Where the budget's alerts go (docs/NOTIFICATIONS.md): some of the tenant's channels, or none
 * chosen for every channel. While the channels cannot be read the chosen ids are left as they are.
 */
export function ChannelPicker({ value, onChange }: ChannelPickerProps) {
  const channels = useChannels();
  const options = channels.data ?? [];
  const chosen = options.filter((channel) => value.includes(channel.id));

  return (
    <Stack spacing={1} component="section" aria-labelledby="budget-channels-heading">
      <Typography id="budget-channels-heading" variant="subtitle1" component="h2">
        Channels
      </Typography>
      {channels.isError ? (
        <Alert severity="warning">{CHANNEL_PICKER_TEXT.loadFailed}</Alert>
      ) : channels.data && options.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {CHANNEL_PICKER_TEXT.noChannels}
        </Typography>
      ) : (
        <Autocomplete<NotificationChannel, true>
          multiple
          size="small"
          loading={channels.isPending}
          disabled={channels.isPending}
          options={options}
          value={chosen}
          onChange={(_event, next) => onChange(next.map((channel) => channel.id))}
          getOptionLabel={(channel) => channel.name}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          renderInput={(params) => (
            <TextField
              {...params}
              label={CHANNEL_PICKER_TEXT.label}
              helperText={chosen.length === 0 ? CHANNEL_PICKER_TEXT.everyChannel : CHANNEL_PICKER_TEXT.chosenOnly}
            />
          )}
        />
      )}
    </Stack>
  );
}
