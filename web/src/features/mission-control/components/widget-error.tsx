import { Alert, AlertTitle, Button } from '@mui/material';
import { UNEXPECTED_ERROR_MESSAGE, costErrorMessage } from '@/lib/cost';

export interface WidgetErrorProps {
  /** What failed, e.g. "Failed to load dashboard data" (§8). */
  title: string;
  error: unknown;
  /** Replaces the generic "An unexpected error occurred". */
  fallback?: string;
  onRetry?(): void;
}

/** A widget whose data could not be loaded: the §8 title and the error's text. */
export function WidgetError({ title, error, fallback, onRetry }: WidgetErrorProps) {
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
      <AlertTitle>{title}</AlertTitle>
      {message === UNEXPECTED_ERROR_MESSAGE && fallback ? fallback : message}
    </Alert>
  );
}
