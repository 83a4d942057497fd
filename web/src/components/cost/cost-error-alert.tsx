import { Alert, AlertTitle, Button } from '@mui/material';
import { UNEXPECTED_ERROR_MESSAGE, costErrorMessage } from '@/lib/cost/api';

export interface CostErrorAlertProps {
  error: unknown;
  /** What failed, shown above the error's text (e.g. "Failed to load dashboard data", §8). */
  title?: string;
  /** Shown instead of "An unexpected error occurred" (e.g. "Failed to fetch cost data"). */
  fallback?: string;
  /** When set, a Retry button calls it. */
  onRetry?(): void;
}

/** A failed cost call, with the §8 text of its error. */
export function CostErrorAlert({ error, title, fallback, onRetry }: CostErrorAlertProps) {
  const message = costErrorMessage(error);
  return (
    <Alert
      severity="error"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        ) : undefined
      }
    >
      {title ? <AlertTitle>{title}</AlertTitle> : null}
      {message === UNEXPECTED_ERROR_MESSAGE && fallback ? fallback : message}
    </Alert>
  );
}
