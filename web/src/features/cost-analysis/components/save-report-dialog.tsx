import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useEffect, useState } from 'react';

export interface SaveReportDialogProps {
  open: boolean;
  onCancel(): void;
  onSave(input: { name: string; description: string }): void;
}

/** Save Report: a name (required) and an optional description. */
export function SaveReportDialog({ open, onCancel, onSave }: SaveReportDialogProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (open) {
      setName('');
      setDescription('');
      setTouched(false);
    }
  }, [open]);
  const missing = name.trim() === '';
  return (
    <Dialog open={open} onClose={onCancel} fullWidth maxWidth="sm" aria-labelledby="save-report-title">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (!missing) onSave({ name: name.trim(), description: description.trim() });
        }}
      >
        <DialogTitle id="save-report-title">Save Report</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            required
            fullWidth
            margin="dense"
            label="Name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && missing}
            helperText={touched && missing ? 'Name is required' : ' '}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <TextField
            fullWidth
            multiline
            minRows={2}
            margin="dense"
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>Cancel</Button>
          <Button type="submit" variant="contained">
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
