import { Alert, Button, FormHelperText, MenuItem, Skeleton, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/api/api-error';
import { useTeamChannels } from '../api/get-team-channels';
import { useTeams } from '../api/get-teams';
import type { TeamsListItem } from '../types';
import { TEAMS_LABELS, TEAMS_MESSAGES } from '../utils/messages';

export interface PickedChannel {
  team: TeamsListItem;
  channel: TeamsListItem;
}

export interface ChannelPickerProps {
  channelId: number;
  canManage: boolean;
  pending: boolean;
  onContinue: (picked: PickedChannel) => void;
  /** Back to Connect, when the teams cannot be read (an expired sign-in, say). */
  onConnectAgain: () => void;
}

function fetchError(error: unknown): string {
  return TEAMS_MESSAGES.fetchFailed(errorMessage(error, 'unexpected error'));
}

/** The second state: one of the signed-in user's teams, then one of its channels (spec 2 §2, §5). */
export function ChannelPicker({ channelId, canManage, pending, onContinue, onConnectAgain }: ChannelPickerProps) {
  const teams = useTeams(channelId);
  const [teamId, setTeamId] = useState<string | null>(null);
  const [teamChannelId, setTeamChannelId] = useState<string | null>(null);
  const channels = useTeamChannels(channelId, teamId);

  const team = teams.data?.find((t) => t.id === teamId) ?? null;
  const channel = channels.data?.find((c) => c.id === teamChannelId) ?? null;
  const complete = team !== null && channel !== null;

  if (teams.isPending) {
    return (
      <Stack spacing={2} aria-label="Loading teams">
        <Skeleton variant="rounded" height={56} />
        <Skeleton variant="rounded" height={56} />
      </Stack>
    );
  }
  if (teams.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onConnectAgain}>
            {TEAMS_LABELS.connectAgain}
          </Button>
        }
      >
        {fetchError(teams.error)}
      </Alert>
    );
  }
  if (teams.data.length === 0) return <Alert severity="info">{TEAMS_MESSAGES.noTeams}</Alert>;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (complete) onContinue({ team, channel });
  };

  return (
    <Stack spacing={2} component="form" onSubmit={onSubmit} aria-label="Team and channel">
      <TextField
        select
        label={TEAMS_LABELS.team}
        value={teamId ?? ''}
        onChange={(event) => {
          setTeamId(event.target.value || null);
          setTeamChannelId(null);
        }}
        fullWidth
      >
        {teams.data.map((t) => (
          <MenuItem key={t.id} value={t.id}>
            {t.displayName}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={TEAMS_LABELS.channel}
        value={teamChannelId ?? ''}
        onChange={(event) => setTeamChannelId(event.target.value || null)}
        disabled={teamId === null || !channels.data?.length}
        fullWidth
      >
        {(channels.data ?? []).map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.displayName}
          </MenuItem>
        ))}
      </TextField>
      {teamId !== null && channels.isPending ? <Skeleton variant="text" aria-label="Loading channels" /> : null}
      {channels.isError ? <Alert severity="error">{fetchError(channels.error)}</Alert> : null}
      {channels.data?.length === 0 ? <Alert severity="info">{TEAMS_MESSAGES.noChannels}</Alert> : null}
      {complete ? null : <FormHelperText>{TEAMS_MESSAGES.selectBoth}</FormHelperText>}
      <div>
        <Button type="submit" variant="contained" disabled={!complete || !canManage} loading={pending}>
          {TEAMS_LABELS.continue}
        </Button>
      </div>
    </Stack>
  );
}
