import { Alert, Button, Stack, Typography } from '@mui/material';
import { TEAMS_LABELS, TEAMS_MESSAGES } from '../utils/messages';

export interface ConnectStepProps {
  canManage: boolean;
  pending: boolean;
  onConnect: () => void;
}

/** The first state: sign in with Microsoft. */
export function ConnectStep({ canManage, pending, onConnect }: ConnectStepProps) {
  return (
    <Stack spacing={2} alignItems="flex-start">
      <Typography>
        Sign in with Microsoft, then choose the team and channel that receive Costscope&apos;s budget alerts. Costscope posts
        them to that channel as you, with the permissions you grant.
      </Typography>
      {canManage ? null : (
        <Alert severity="warning" variant="outlined">
          {TEAMS_MESSAGES.notAdmin}
        </Alert>
      )}
      <Button variant="contained" disabled={!canManage} loading={pending} onClick={onConnect}>
        {TEAMS_LABELS.connect}
      </Button>
    </Stack>
  );
}
