import { Alert, Snackbar } from '@mui/material';
import { SUCCESS_TOAST_MS } from '../utils/messages';

export interface Toast {
  severity: 'success' | 'error';
  message: string;
}

/** The outcome of an action, at the top right; successes close by themselves, errors stay. */
export function PageToast({ toast, onClose }: { toast: Toast | null; onClose: () => void }) {
  return (
    <Snackbar
      open={toast !== null}
      autoHideDuration={toast?.severity === 'success' ? SUCCESS_TOAST_MS : null}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      onClose={(_, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
    >
      {toast ? (
        <Alert severity={toast.severity} variant="filled" onClose={onClose} sx={{ maxWidth: 480 }}>
          {toast.message}
        </Alert>
      ) : (
        <span />
      )}
    </Snackbar>
  );
}
