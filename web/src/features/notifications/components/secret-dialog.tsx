import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useState } from 'react';

export interface SecretDialogProps {
  channelName: string;
  secret: string;
  onClose: () => void;
}

/**
 * The generated signing secret of a new webhook channel. The create answer is the only one
 * that carries it, so the dialog closes only by its button, not by a stray click outside.
 */
export function SecretDialog({ channelName, secret, onClose }: SecretDialogProps) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <Dialog
      open
      onClose={(_, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      fullWidth
      maxWidth="sm"
      aria-labelledby="channel-secret-title"
    >
      <DialogTitle id="channel-secret-title">Signing secret of {channelName}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          Copy this secret now: it is not shown again.
        </Alert>
        <DialogContentText sx={{ mb: 2 }}>
          Your endpoint checks the X-Costscope-Signature header of every request with it (HMAC-SHA256 of the timestamp, a
          dot and the body).
        </DialogContentText>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            value={secret}
            size="small"
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, 'aria-label': 'Signing secret', spellCheck: false } }}
            onFocus={(event) => event.target.select()}
            sx={{ fontFamily: 'monospace' }}
          />
          <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy} sx={{ flexShrink: 0 }}>
            {copied ? 'Copied' : 'Copy secret'}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
