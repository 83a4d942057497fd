import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState } from 'react';
import { isApiError } from '@/api/api-error';
import type { StandardTag } from '@/components/inventory';
import { useDeleteStandardTag } from '../api/tags-api';
import { STANDARD_TAG_MESSAGES } from '../model/standard-tag';
import { ErrorMessage } from './error-message';

/** "Confirm Tag Deletion" (spec 1 §2.9). */
export function DeleteTagDialog({ tag, onClose }: { tag: StandardTag; onClose(): void }) {
  const titleId = useId();
  const remove = useDeleteStandardTag();
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open onClose={remove.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{STANDARD_TAG_MESSAGES.deleteTitle}</DialogTitle>
      <DialogContent>
        {error ? <ErrorMessage message={error} onClose={() => setError(null)} /> : null}
        <DialogContentText>
          Are you sure you want to delete the standard tag &quot;{tag.key}&quot;? Resources are no longer checked against it.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color="error"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(tag.id, {
              onSuccess: onClose,
              onError: (cause) =>
                setError(isApiError(cause) && cause.serverMessage ? cause.serverMessage : STANDARD_TAG_MESSAGES.defaultError),
            })
          }
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
