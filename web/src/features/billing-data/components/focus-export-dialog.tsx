import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { isApiError } from '@/api/api-error';
import { downloadHref } from '@/lib/cost/csv';
import { useExportFocus, type FocusExportRequest } from '../api/export-focus';

/** The previous calendar month (UTC), the range the dialog proposes. */
export function previousMonth(now: Date = new Date()): { start: string; end: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10) };
}

/** The server's message for `field` of a 422 (its rules live in Rust; nothing is checked here). */
function fieldMessage(error: unknown, field: string): string | undefined {
  if (!isApiError(error) || !error.details) return undefined;
  const messages = error.details[field];
  return Array.isArray(messages) && typeof messages[0] === 'string' ? messages[0] : undefined;
}

/** Saves a Blob under `fileName` through a temporary object URL. */
function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  try {
    downloadHref(fileName, url);
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

export interface FocusExportDialogProps {
  onClose: () => void;
  now?: Date;
}

/** Choose a range, format and FOCUS version; the server writes the file and the browser saves it. */
export function FocusExportDialog({ onClose, now }: FocusExportDialogProps) {
  const [request, setRequest] = useState<FocusExportRequest>(() => ({ ...previousMonth(now), format: 'csv', version: '1.2' }));
  const exportFocus = useExportFocus();
  const error = exportFocus.error;
  const fieldErrors = { start: fieldMessage(error, 'start'), end: fieldMessage(error, 'end') };
  const set = (patch: Partial<FocusExportRequest>) => setRequest((current) => ({ ...current, ...patch }));

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="focus-export-title">
      <DialogTitle id="focus-export-title">Export FOCUS</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Download your cost line items as a FOCUS dataset, with every mandatory column of the version. Charges starting
          on the chosen days (UTC) are included; an export covers at most 366 days.
        </DialogContentText>
        {error && !fieldErrors.start && !fieldErrors.end ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error.message || 'The export failed'}
          </Alert>
        ) : null}
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', pt: 1 }}>
          <TextField
            label="From"
            type="date"
            size="small"
            value={request.start}
            onChange={(event) => set({ start: event.target.value })}
            error={Boolean(fieldErrors.start)}
            helperText={fieldErrors.start}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="To"
            type="date"
            size="small"
            value={request.end}
            onChange={(event) => set({ end: event.target.value })}
            error={Boolean(fieldErrors.end)}
            helperText={fieldErrors.end}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            select
            label="File format"
            size="small"
            value={request.format}
            onChange={(event) => set({ format: event.target.value as FocusExportRequest['format'] })}
            sx={{ minWidth: 140 }}
          >
            <MenuItem value="csv">CSV</MenuItem>
            <MenuItem value="parquet">Parquet</MenuItem>
          </TextField>
          <TextField
            select
            label="FOCUS version"
            size="small"
            value={request.version}
            onChange={(event) => set({ version: event.target.value as FocusExportRequest['version'] })}
            sx={{ minWidth: 140 }}
          >
            <MenuItem value="1.2">FOCUS 1.2</MenuItem>
            <MenuItem value="1.3">FOCUS 1.3</MenuItem>
          </TextField>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          loading={exportFocus.isPending}
          onClick={() =>
            exportFocus.mutate(request, {
              onSuccess: (file) => {
                saveBlob(file.fileName, file.blob);
                onClose();
              },
            })
          }
        >
          Export
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The Billing Data page's "Export FOCUS" button and its dialog. */
export function FocusExportButton() {
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
      <Button variant="outlined" onClick={() => setOpen(true)}>
        Export FOCUS
      </Button>
      {open ? <FocusExportDialog onClose={() => setOpen(false)} /> : null}
    </Box>
  );
}
