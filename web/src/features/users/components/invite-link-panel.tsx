import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, AlertTitle, Button, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import type { InviteResponse } from '@/api/types';

export interface InviteLinkPanelProps {
  invitation: InviteResponse;
  onClose: () => void;
}

/** The one-time link of the last invitation; the admin must share it when no e-mail was sent. */
export function InviteLinkPanel({ invitation, onClose }: InviteLinkPanelProps) {
  const [copied, setCopied] = useState(false);
  const email = invitation.user.email;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invitation.invite_url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <Alert severity={invitation.email_sent ? 'info' : 'warning'} onClose={onClose} sx={{ mb: 3 }}>
      <AlertTitle>Share this invitation link</AlertTitle>
      {invitation.email_sent
        ? `We e-mailed this link to ${email}. You can also share it with them directly.`
        : `No e-mail was sent (e-mail delivery is not configured). Share this link with ${email} yourself.`}{' '}
      It works once and expires in 7 days.
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1.5 }}>
        <TextField
          value={invitation.invite_url}
          size="small"
          fullWidth
          slotProps={{ htmlInput: { readOnly: true, 'aria-label': 'Invitation link' } }}
          onFocus={(event) => event.target.select()}
          sx={{ bgcolor: 'background.paper', minWidth: { sm: 360 } }}
        />
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy} sx={{ flexShrink: 0 }}>
          {copied ? 'Copied' : 'Copy link'}
        </Button>
      </Stack>
    </Alert>
  );
}
