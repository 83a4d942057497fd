import { errorMessage } from '@/api/api-error';
import { Alert } from '@/components/plain/alert';

/** Server 4xx messages of the auth calls, shown above the form. */
export function AuthFormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert severity="error" className="cs-mb-2">
      {errorMessage(error, 'An unexpected error occurred')}
    </Alert>
  );
}
