import { Alert, AlertTitle } from '@mui/material';

/** §8: the standard tags API's error — a dismissible red Error message. */
export function ErrorMessage({ message, onClose }: { message: string; onClose(): void }) {
  return (
    <Alert severity="error" onClose={onClose} sx={{ mb: 2 }}>
      <AlertTitle>Error</AlertTitle>
      {message}
    </Alert>
  );
}
