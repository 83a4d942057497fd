import AddIcon from '@mui/icons-material/Add';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import { Button, Paper, Stack, Tooltip, Typography } from '@mui/material';

export interface ChannelsEmptyStateProps {
  canManage: boolean;
  disabledReason: string | null;
  onAdd: () => void;
}

/** No channel yet: what channels do, and the way to add the first. */
export function ChannelsEmptyState({ canManage, disabledReason, onAdd }: ChannelsEmptyStateProps) {
  return (
    <Paper variant="outlined" sx={{ p: 4 }}>
      <Stack spacing={1.5} alignItems="center" textAlign="center">
        <NotificationsNoneOutlinedIcon color="action" sx={{ fontSize: 40 }} aria-hidden="true" />
        <Typography variant="h6" component="p">
          No channels yet
        </Typography>
        <Typography color="text.secondary" sx={{ maxWidth: 560 }}>
          A channel is where Costscope tells people about budget alerts: an e-mail address, a Slack channel, a Microsoft
          Teams workflow or your own signed webhook. Every channel receives every budget alert of this account, unless a
          budget names its own channels. Until you add one, alerts are e-mailed to the account&apos;s owners and admins
          when e-mail is configured.
        </Typography>
        <Tooltip title={canManage ? '' : (disabledReason ?? '')}>
          <span>
            <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd} disabled={!canManage}>
              Add channel
            </Button>
          </span>
        </Tooltip>
      </Stack>
    </Paper>
  );
}
