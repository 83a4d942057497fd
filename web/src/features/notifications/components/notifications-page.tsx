import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { errorMessage } from '@/api/api-error';
import { useMe } from '@/api/queries';
import { PageHeader } from '@/components/page-header';
import { useChannels } from '../api/get-channels';
import { useTestChannel } from '../api/test-channel';
import type { Channel, CreatedChannel } from '../types';
import { NOTIFICATION_MESSAGES } from '../utils/messages';
import { isAdminLevel } from '../utils/permissions';
import { AddChannelDialog } from './add-channel-dialog';
import { ChannelsEmptyState } from './channels-empty-state';
import { ChannelsTable } from './channels-table';
import { PageToast, type Toast } from '@/components/page-toast';
import { RecentDeliveries } from './recent-deliveries';
import { RemoveChannelDialog } from './remove-channel-dialog';
import { SecretDialog } from './secret-dialog';

/** Issue 15: /settings/notifications — where alerts are sent, and what became of them. */
export function NotificationsPage() {
  const me = useMe();
  const channels = useChannels();
  const test = useTestChannel();
  const [toast, setToast] = useState<Toast | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Channel | null>(null);
  const [newSecret, setNewSecret] = useState<{ name: string; secret: string } | null>(null);
  const [testing, setTesting] = useState<ReadonlySet<number>>(new Set());

  const canManage = isAdminLevel(me.data?.role);
  const disabledReason = canManage ? null : NOTIFICATION_MESSAGES.notAdmin;
  const empty = channels.isSuccess && channels.data.length === 0;

  const onTest = (channel: Channel) => {
    setTesting((current) => new Set(current).add(channel.id));
    // One promise per call: with several tests under way, each row gets its own outcome.
    void test
      .mutateAsync(channel.id)
      .then((result) =>
        setToast(
          result.delivered
            ? { severity: 'success', message: NOTIFICATION_MESSAGES.testDelivered(channel.name) }
            : { severity: 'error', message: NOTIFICATION_MESSAGES.testNotDelivered },
        ),
      )
      .catch((error: unknown) =>
        setToast({ severity: 'error', message: errorMessage(error, NOTIFICATION_MESSAGES.testNotDelivered) }),
      )
      .finally(() =>
        setTesting((current) => {
          const next = new Set(current);
          next.delete(channel.id);
          return next;
        }),
      );
  };

  const onCreated = (channel: CreatedChannel, generatedSecret: boolean) => {
    setAdding(false);
    setToast({ severity: 'success', message: NOTIFICATION_MESSAGES.added(channel.name) });
    if (generatedSecret && channel.secret) setNewSecret({ name: channel.name, secret: channel.secret });
  };

  return (
    <Box>
      <PageHeader
        title="Notifications"
        subtitle="Send budget alerts to e-mail, Slack, Microsoft Teams or your own webhook."
        actions={
          empty ? null : (
            <Tooltip title={disabledReason ?? ''}>
              <span>
                <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} disabled={!canManage}>
                  Add channel
                </Button>
              </span>
            </Tooltip>
          )
        }
      />
      {disabledReason && me.data ? (
        <Alert severity="info" variant="outlined" sx={{ mb: 3 }}>
          {disabledReason}
        </Alert>
      ) : null}

      <Box component="section" aria-labelledby="channels-heading">
        <Typography variant="h6" component="h2" id="channels-heading" sx={{ mb: 1.5 }}>
          Channels
        </Typography>
        {channels.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => channels.refetch()}>
                Retry
              </Button>
            }
          >
            {NOTIFICATION_MESSAGES.channelsFailed}: {errorMessage(channels.error, 'unexpected error')}
          </Alert>
        ) : channels.isPending ? (
          <Stack spacing={1} aria-label="Loading notification channels">
            {[0, 1].map((i) => (
              <Skeleton key={i} variant="rounded" height={52} />
            ))}
          </Stack>
        ) : empty ? (
          <ChannelsEmptyState canManage={canManage} disabledReason={disabledReason} onAdd={() => setAdding(true)} />
        ) : (
          <ChannelsTable
            channels={channels.data}
            canManage={canManage}
            disabledReason={disabledReason}
            testing={testing}
            onTest={onTest}
            onRemove={setRemoving}
          />
        )}
      </Box>

      <RecentDeliveries />

      <AddChannelDialog open={adding} onClose={() => setAdding(false)} onCreated={onCreated} />
      {newSecret ? <SecretDialog channelName={newSecret.name} secret={newSecret.secret} onClose={() => setNewSecret(null)} /> : null}
      {removing ? (
        <RemoveChannelDialog
          key={removing.id}
          channel={removing}
          onClose={() => setRemoving(null)}
          onRemoved={() => {
            setToast({ severity: 'success', message: NOTIFICATION_MESSAGES.removed(removing.name) });
            setRemoving(null);
          }}
        />
      ) : null}
      <PageToast toast={toast} onClose={() => setToast(null)} />
    </Box>
  );
}
