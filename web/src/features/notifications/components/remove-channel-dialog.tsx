import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { useDeleteChannel } from '../api/delete-channel';
import type { Channel } from '../types';
import { NOTIFICATION_MESSAGES } from '../utils/messages';

export interface RemoveChannelDialogProps {
  channel: Channel;
  onClose: () => void;
  onRemoved: () => void;
}

export function RemoveChannelDialog({ channel, onClose, onRemoved }: RemoveChannelDialogProps) {
  const remove = useDeleteChannel();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="remove-channel-title">
      <DialogTitle id="remove-channel-title">Remove channel</DialogTitle>
      <DialogContent>
        {remove.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorMessage(remove.error, NOTIFICATION_MESSAGES.removeFailed)}
          </Alert>
        ) : null}
        <DialogContentText>
          Remove <strong>{channel.name}</strong> ({channel.targetHint})? It receives no more alerts, and the alerts still
          waiting to be delivered to it are dropped. The delivery history keeps its name.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          color="error"
          loading={remove.isPending}
          onClick={() => remove.mutate(channel.id, { onSuccess: onRemoved })}
        >
          Remove
        </Button>
      </DialogActions>
    </Dialog>
  );
}
