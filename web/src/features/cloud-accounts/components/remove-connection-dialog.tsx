import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { errorMessage } from '@/api/api-error';
import { useRemoveConnection } from '../api/accounts';
import type { Provider } from '../types';
import { PROVIDER_NAMES } from '../utils/providers';

export interface RemoveConnectionDialogProps {
  provider: Provider;
  accountId: string;
  accountName: string;
  onClose: () => void;
  onRemoved: () => void;
}

const FAILED: Record<Provider, string> = {
  aws: 'Failed to remove AWS account. Please try again.',
  gcp: 'Failed to remove GCP account. Please try again.',
  azure: 'Failed to remove Azure export. Please try again.',
};

/** Spec 2 §5: removing an account requires typing its account id. */
export function RemoveConnectionDialog({ provider, accountId, accountName, onClose, onRemoved }: RemoveConnectionDialogProps) {
  const remove = useRemoveConnection();
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === accountId;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="remove-connection-title">
      <DialogTitle id="remove-connection-title">Remove {PROVIDER_NAMES[provider]} account</DialogTitle>
      <DialogContent>
        {remove.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {provider === 'gcp' ? FAILED.gcp : errorMessage(remove.error, FAILED[provider])}
          </Alert>
        ) : null}
        <DialogContentText sx={{ mb: 2 }}>
          Remove <strong>{accountName}</strong> ({accountId})? Costscope stops syncing its billing data; the cost data already
          loaded stays. Type <strong>{accountId}</strong> to confirm.
        </DialogContentText>
        <TextField
          label="Account ID"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          fullWidth
          autoFocus
          autoComplete="off"
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          color="error"
          disabled={!matches}
          loading={remove.isPending}
          onClick={() => remove.mutate({ provider, accountId }, { onSuccess: onRemoved })}
        >
          Remove
        </Button>
      </DialogActions>
    </Dialog>
  );
}
