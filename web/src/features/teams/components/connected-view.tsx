import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import { Stack, Typography } from '@mui/material';
import { useCountdownRedirect } from '@/lib/use-countdown-redirect';
import { TEAMS_LABELS } from '../utils/messages';
import { INTEGRATIONS_PATH } from '../utils/paths';

/** Spec 2 §4 / §9: back to the integrations after a 10 s countdown. */
export const TEAMS_REDIRECT_MS = 10_000;

/** The last state: the team and channel that now receive alerts, then back to the integrations. */
export function ConnectedView({ teamName, channelName }: { teamName: string; channelName: string }) {
  const left = useCountdownRedirect(true, TEAMS_REDIRECT_MS, INTEGRATIONS_PATH);
  return (
    <Stack spacing={2} alignItems="center" sx={{ py: 3, textAlign: 'center' }} role="status">
      <CheckCircleOutlineIcon color="success" sx={{ fontSize: 56 }} />
      <Typography variant="h5" component="h2">
        {TEAMS_LABELS.connectedTitle}
      </Typography>
      <Typography>
        Team: <strong>{teamName}</strong>
      </Typography>
      <Typography>
        Channel: <strong>{channelName}</strong>
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Redirecting in {left} {left === 1 ? 'second' : 'seconds'}
      </Typography>
    </Stack>
  );
}
