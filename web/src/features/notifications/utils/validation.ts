import { errorMessage, isApiError } from '@/api/api-error';
import { CHANNEL_TYPES, type CreatableChannelType, type CreateChannelRequest } from '../types';
import { CHANNEL_RULE_MESSAGES, NOTIFICATION_MESSAGES } from './messages';

// The server judges a channel (costscope_core::notify, docs/NOTIFICATIONS.md). The form only
// stops an empty required field, with the words the server itself answers for it, and shows
// the server's 422 `details` (and a 409) on the fields. No TypeScript copy of the Rust rules
// (URL schemes and hosts, lengths, e-mail shape): a copy is a bug waiting to disagree.

export type ChannelField = 'type' | 'name' | 'target' | 'secret';
const CHANNEL_FIELDS: readonly ChannelField[] = ['type', 'name', 'target', 'secret'];

/** What the "Add channel" form holds; `type` is empty until one is chosen. */
export interface ChannelFormValues {
  type: CreatableChannelType | '';
  name: string;
  target: string;
  secret: string;
}

export type ChannelFieldErrors = Partial<Record<ChannelField, string>>;

export function isChannelType(value: string): value is CreatableChannelType {
  return (CHANNEL_TYPES as readonly string[]).includes(value);
}

/**
 * The empty required fields, each with the message the server gives for it; empty when the
 * form may be sent (everything else is the server's to judge).
 */
export function validateChannel(values: ChannelFormValues): ChannelFieldErrors {
  const errors: ChannelFieldErrors = {};
  const type = values.type;
  if (!isChannelType(type)) errors.type = CHANNEL_RULE_MESSAGES.type;
  if (!values.name.trim()) errors.name = CHANNEL_RULE_MESSAGES.nameRequired;
  if (type && !values.target.trim()) {
    errors.target = type === 'email' ? CHANNEL_RULE_MESSAGES.emptyEmail : CHANNEL_RULE_MESSAGES.emptyUrl;
  }
  return errors;
}

/** The POST body of a valid form: trimmed name and target; a secret only for a webhook that has one. */
export function toCreateRequest(values: ChannelFormValues & { type: CreatableChannelType }): CreateChannelRequest {
  const body: CreateChannelRequest = { type: values.type, name: values.name.trim(), target: values.target.trim() };
  if (values.type === 'webhook' && values.secret !== '') body.secret = values.secret;
  return body;
}

/** A 422 detail is a list of messages (the server's shape) or, leniently, one message. */
function firstMessage(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.find((m): m is string => typeof m === 'string');
  return typeof value === 'string' ? value : undefined;
}

export interface ServerProblems {
  /** Messages the server put on the form's fields. */
  fields: ChannelFieldErrors;
  /** A message for the whole form (tenant limit, 403, network, …); null when the fields say it all. */
  form: string | null;
}

/**
 * Where a refused create is shown: a 409 on Name; a 422's `details` on their fields (the first
 * message of each) and what names no field of the form above it; anything else above the form.
 */
export function serverProblems(error: unknown, name: string): ServerProblems {
  if (!isApiError(error)) return { fields: {}, form: NOTIFICATION_MESSAGES.addFailed };
  if (error.status === 409) return { fields: { name: error.serverMessage ?? CHANNEL_RULE_MESSAGES.nameTaken(name) }, form: null };
  if (error.status === 422) {
    const fields: ChannelFieldErrors = {};
    let unplaced = false;
    for (const [field, value] of Object.entries(error.details ?? {})) {
      const first = firstMessage(value);
      if (!first) continue;
      if ((CHANNEL_FIELDS as readonly string[]).includes(field)) fields[field as ChannelField] = first;
      else unplaced = true;
    }
    const placed = Object.keys(fields).length > 0;
    return { fields, form: placed && !unplaced ? null : error.message };
  }
  return { fields: {}, form: errorMessage(error, NOTIFICATION_MESSAGES.addFailed) };
}
