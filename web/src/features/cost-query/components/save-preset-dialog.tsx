import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useState } from 'react';

/** Not in the spec: a preset is found in the Presets menu by its name. */
export const PRESET_NAME_REQUIRED = 'Preset name is required';

export interface SavePresetDialogProps {
  open: boolean;
  onClose(): void;
  onSave(preset: { name: string; description?: string }): void;
}

/** Save preset: a name (required) and a description (optional) for the current filters and logic. */
export function SavePresetDialog({ open, onClose, onSave }: SavePresetDialogProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setName('');
    setDescription('');
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const save = () => {
    if (name.trim() === '') {
      setError(PRESET_NAME_REQUIRED);
      return;
    }
    onSave({ name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
    reset();
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby="save-preset-title" fullWidth maxWidth="xs">
      <DialogTitle id="save-preset-title">Save preset</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          spacing={2}
          sx={{ pt: 1 }}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
          id="save-preset-form"
        >
          <TextField
            autoFocus
            required
            label="Name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setError(null);
            }}
            error={error !== null}
            helperText={error ?? ' '}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <TextField
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" form="save-preset-form" variant="contained">
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
