import { Alert, Snackbar } from '@mui/material';

/** Success toasts close after 5 s; error toasts stay until closed. */
export const SUCCESS_TOAST_MS = 5_000;

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
