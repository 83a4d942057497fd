import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useId, useState } from 'react';
import { isApiError } from '@/api/api-error';
import type { StandardTag } from '@/components/inventory';
import { useSaveStandardTag } from '../api/tags-api';
import { STANDARD_TAG_MESSAGES, formatTagValues, parseTagValues } from '../model/standard-tag';
import { ErrorMessage } from './error-message';

export interface StandardTagDialogProps {
  /** The tag being edited; undefined adds a new one. */
  tag?: StandardTag;
  onClose(): void;
}

function firstMessage(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.find((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? value : undefined;
}

/**
 * Add / edit a standard tag (spec 1 §2.9, §5): Tag Key and Tag Values (comma-separated); Add /
 * Update disabled while the key is empty; an empty key or the server's field messages mark the
 * field; other failures show the server's message or "An error occurred".
 */
export function StandardTagDialog({ tag, onClose }: StandardTagDialogProps) {
  const titleId = useId();
  const editing = tag !== undefined;
  const [key, setKey] = useState(tag?.key ?? '');
  const [values, setValues] = useState(tag ? formatTagValues(tag.values) : '');
  const [keyTouched, setKeyTouched] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<{ key?: string; values?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const save = useSaveStandardTag();

  const keyEmpty = key.trim() === '';
  const keyError = fieldErrors.key ?? (keyTouched && keyEmpty ? STANDARD_TAG_MESSAGES.keyRequired : undefined);

  const submit = () => {
    if (keyEmpty) {
      setKeyTouched(true);
      return;
    }
    setError(null);
    setFieldErrors({});
    save.mutate(
      { id: tag?.id, body: { key: key.trim(), values: parseTagValues(values) } },
      {
        onSuccess: onClose,
        onError: (cause) => {
          const details = isApiError(cause) ? cause.details : undefined;
          setFieldErrors({ key: firstMessage(details?.['key']), values: firstMessage(details?.['values']) });
          setError(isApiError(cause) && cause.serverMessage ? cause.serverMessage : STANDARD_TAG_MESSAGES.defaultError);
        },
      },
    );
  };

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{editing ? 'Edit Tag' : 'Add New Tag'}</DialogTitle>
      <DialogContent>
        {error ? <ErrorMessage message={error} onClose={() => setError(null)} /> : null}
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Tag Key"
            value={key}
            required
            autoFocus
            onChange={(event) => {
              setKey(event.target.value);
              setFieldErrors((current) => ({ ...current, key: undefined }));
            }}
            onBlur={() => setKeyTouched(true)}
            error={keyError !== undefined}
            helperText={keyError ?? ' '}
          />
          <TextField
            label="Tag Values"
            value={values}
            onChange={(event) => {
              setValues(event.target.value);
              setFieldErrors((current) => ({ ...current, values: undefined }));
            }}
            error={fieldErrors.values !== undefined}
            helperText={fieldErrors.values ?? 'Comma-separated, e.g. production, staging. Leave empty to allow any value.'}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={keyEmpty || save.isPending}>
          {editing ? 'Update' : 'Add'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
