import { Alert, Box, Button, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessage } from '@/api/api-error';
import { PageHeader } from '@/components/page-header';
import { useConnections, useRequestSync } from '../api/accounts';
import { useRecheckRegistration } from '../api/aws';
import { useCloudPermissions } from '../hooks/use-cloud-permissions';
import { PROVIDERS, type CloudConnection, type Provider } from '../types';
import { PROVIDER_NAMES, connectPath } from '../utils/providers';
import { ConnectionsTable, TABLE_NOUNS } from './connections-table';
import { ProviderTiles } from './provider-tiles';
import { RemoveConnectionDialog } from './remove-connection-dialog';
import { TeamsIntegrationsSection } from './teams-integrations-section';

export const READ_ONLY_BANNER =
  'Costscope uses read-only access to your cloud accounts: it reads billing exports and account lists and never changes your resources.';

/** Spec 2 §2: /settings/integrations — every way in, the connections with their sync state, the Teams channels. */
export function CloudAccountsPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const access = useCloudPermissions();
  // Owners and admins connect and remove Teams channels, in the demo too (the server allows it).
  const teamsAccess = access.ready && access.adminLevel;
  const connections = useConnections();
  const sync = useRequestSync();
  const recheck = useRecheckRegistration();
  const [sending, setSending] = useState<ReadonlySet<number>>(new Set());
  const [syncError, setSyncError] = useState<string | null>(null);
  // The row being removed and the provider of the table it is listed in.
  const [removing, setRemoving] = useState<{ row: CloudConnection; provider: Provider } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // The welcome page's breadcrumb follows the person into the wizards.
  const open = (to: string) => navigate(to, { state: location.state });

  const onSync = (row: CloudConnection) => {
    if (row.id == null) return;
    const id = row.id;
    setSyncError(null);
    setSending((current) => new Set(current).add(id));
    sync.mutate(id, {
      onError: (error) => setSyncError(`${row.account_id}: ${errorMessage(error, 'Failed to start the sync. Please try again.')}`),
      onSettled: () =>
        setSending((current) => {
          const next = new Set(current);
          next.delete(id);
          return next;
        }),
    });
  };

  return (
    <Box>
      <PageHeader title="Cloud Accounts" subtitle="Connect your cloud accounts once; Costscope loads their billing data on a schedule." />
      <Alert severity="info" variant="outlined" sx={{ mb: 3 }}>
        {READ_ONLY_BANNER}
      </Alert>
      {access.reason ? (
        <Alert severity="warning" variant="outlined" sx={{ mb: 3 }}>
          {access.reason}
        </Alert>
      ) : null}
      <ProviderTiles canManage={access.canManage} adminLevel={teamsAccess} disabledReason={access.reason} onOpen={open} />

      {notice ? (
        <Alert severity="success" role="status" sx={{ mb: 3 }} onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      {syncError ? (
        <Alert severity="error" sx={{ mb: 3 }} onClose={() => setSyncError(null)}>
          {syncError}
        </Alert>
      ) : null}

      {connections.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => connections.refetch()}>
              Retry
            </Button>
          }
        >
          Failed to load cloud accounts: {errorMessage(connections.error, 'unexpected error')}
        </Alert>
      ) : connections.isPending ? (
        <Stack spacing={1} aria-label="Loading cloud accounts">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={52} />
          ))}
        </Stack>
      ) : (
        <Stack spacing={4}>
          {PROVIDERS.map((provider) => (
            <Box key={provider} component="section" aria-labelledby={`connections-${provider}`}>
              <Typography variant="h6" component="h2" id={`connections-${provider}`} sx={{ mb: 1.5 }}>
                {PROVIDER_NAMES[provider]} {provider === 'aws' ? 'Accounts' : provider === 'gcp' ? 'Projects' : 'Exports'}
              </Typography>
              <ConnectionsTable
                provider={provider}
                rows={connections.data.filter((row) => row.provider === provider)}
                canManage={access.canManage}
                disabledReason={access.reason}
                sending={sending}
                onSync={onSync}
                onRemove={(row) => setRemoving({ row, provider })}
                onConnect={(row) => open(connectPath(provider, row.account_id, row.account_name))}
                onRecheck={
                  provider === 'aws'
                    ? (row) =>
                        recheck.mutate(row.account_id, {
                          onError: (error) => setSyncError(`${row.account_id}: ${errorMessage(error, 'Failed to check the account again.')}`),
                        })
                    : undefined
                }
              />
            </Box>
          ))}
        </Stack>
      )}

      <Box sx={{ mt: 4 }}>
        <TeamsIntegrationsSection canManage={teamsAccess} disabledReason={access.reason} />
      </Box>

      {removing ? (
        <RemoveConnectionDialog
          key={`${removing.provider}-${removing.row.account_id}`}
          provider={removing.provider}
          accountId={removing.row.account_id}
          accountName={removing.row.account_name}
          onClose={() => setRemoving(null)}
          onRemoved={() => {
            setNotice(`${PROVIDER_NAMES[removing.provider]} ${TABLE_NOUNS[removing.provider].slice(0, -1)} ${removing.row.account_id} removed`);
            setRemoving(null);
          }}
        />
      ) : null}
    </Box>
  );
}
