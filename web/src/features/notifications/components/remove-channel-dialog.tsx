import { errorMessage } from '@/api/api-error';
import { ConfirmRemovalDialog } from '@/components/confirm-removal-dialog';
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
    <ConfirmRemovalDialog
      titleId="remove-channel-title"
      title="Remove channel"
      confirmLabel="Remove"
      error={remove.isError ? errorMessage(remove.error, NOTIFICATION_MESSAGES.removeFailed) : null}
      pending={remove.isPending}
      onConfirm={() => remove.mutate(channel.id, { onSuccess: onRemoved })}
      onClose={onClose}
    >
      Remove <strong>{channel.name}</strong> ({channel.targetHint})? It receives no more alerts, and the alerts still
      waiting to be delivered to it are dropped. The delivery history keeps its name.
    </ConfirmRemovalDialog>
  );
}
