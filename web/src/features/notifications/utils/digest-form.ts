import { errorMessage, isApiError } from '@/api/api-error';
import { DIGEST_MESSAGES } from './messages';

/** The digest form's fields, named as the server's 422 `details` name them. */
export const DIGEST_FIELDS = ['frequency', 'email', 'channelId'] as const;
export type DigestField = (typeof DIGEST_FIELDS)[number];
export type DigestFieldErrors = Partial<Record<DigestField, string>>;

/**
 * A failed save as the form shows it: the 422's first message of each field under that field,
 * and anything else (another status, a field the form does not have) above the form.
 */
export function digestProblems(error: unknown): { fields: DigestFieldErrors; form: string | null } {
  if (!isApiError(error)) return { fields: {}, form: DIGEST_MESSAGES.notSaved };
  if (error.status !== 422) return { fields: {}, form: errorMessage(error, DIGEST_MESSAGES.notSaved) };
  const fields: DigestFieldErrors = {};
  let unplaced = false;
  for (const [field, value] of Object.entries(error.details ?? {})) {
    const message = Array.isArray(value) ? value.find((m): m is string => typeof m === 'string') : undefined;
    if (!message) continue;
    if ((DIGEST_FIELDS as readonly string[]).includes(field)) fields[field as DigestField] = message;
    else unplaced = true;
  }
  return { fields, form: Object.keys(fields).length > 0 && !unplaced ? null : error.message };
}
