import { Alert, Box, Button, Skeleton, Typography } from '@mui/material';
import { useState } from 'react';
import { isApiError } from '@/api/api-error';
import { ConfirmRemovalDialog } from '@/components/confirm-removal-dialog';
import { useRemoveTeamsIntegration, useTeamsIntegrations } from '../api/teams';
import type { TeamsIntegration } from '../types';
import { TeamsIntegrationsTable } from './teams-integrations-table';

/** Spec 2 §8 Teams, word for word. */
export const TEAMS_LOAD_FAILED = 'Failed to load Teams integration details';
export const TEAMS_REMOVE_FAILED = 'Failed to remove Teams integration';

export interface TeamsIntegrationsSectionProps {
  canManage: boolean;
  disabledReason: string | null;
}

/** The "MS Teams Integrations" table of Cloud Accounts, with its removal (owners and admins). */
export function TeamsIntegrationsSection({ canManage, disabledReason }: TeamsIntegrationsSectionProps) {
  const integrations = useTeamsIntegrations();
  const remove = useRemoveTeamsIntegration();
  const [removing, setRemoving] = useState<TeamsIntegration | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const close = () => {
    setRemoving(null);
    remove.reset();
  };

  let body;
  if (integrations.isPending) {
    body = <Skeleton variant="rounded" height={52} aria-label="Loading Teams integrations" />;
  } else if (integrations.isError) {
    // 503: the server has no Microsoft Teams app registration; its own words say so.
    body =
      isApiError(integrations.error) && integrations.error.status === 503 ? (
        <Alert severity="info" variant="outlined">
          {integrations.error.message}
        </Alert>
      ) : (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => integrations.refetch()}>
              Retry
            </Button>
          }
        >
          {TEAMS_LOAD_FAILED}
        </Alert>
      );
  } else {
    body = (
      <TeamsIntegrationsTable rows={integrations.data} canManage={canManage} disabledReason={disabledReason} onRemove={setRemoving} />
    );
  }

  return (
    <Box component="section" aria-labelledby="connections-teams">
      <Typography variant="h6" component="h2" id="connections-teams" sx={{ mb: 1.5 }}>
        MS Teams Integrations
      </Typography>
      {notice ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }} onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      {body}
      {removing ? (
        <ConfirmRemovalDialog
          titleId="remove-teams-title"
          title="Remove Teams integration"
          confirmLabel="Remove"
          error={remove.isError ? TEAMS_REMOVE_FAILED : null}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(removing.channel_id, {
              onSuccess: () => {
                setNotice(`Microsoft Teams channel ${removing.team_name} / ${removing.team_channel_name} removed`);
                close();
              },
            })
          }
          onClose={close}
        >
          Remove <strong>{removing.team_name} / {removing.team_channel_name}</strong>? Costscope stops posting alerts to this
          channel, and the alerts still waiting to be delivered to it are dropped.
        </ConfirmRemovalDialog>
      ) : null}
    </Box>
  );
}
