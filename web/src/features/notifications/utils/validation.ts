import { errorMessage, isApiError } from '@/api/api-error';
import { CHANNEL_TYPES, type ChannelType, type CreateChannelRequest } from '../types';
import { CHANNEL_RULE_MESSAGES, NOTIFICATION_MESSAGES } from './messages';

// The form checks mirror the server's rules (costscope_core::notify, docs/NOTIFICATIONS.md) so
// that a person sees the message before sending; the server stays the judge, and its 422
// `details` land on the same fields.

export const NAME_MAX_CHARS = 100;
export const URL_MAX_CHARS = 2048;
export const SECRET_MIN_CHARS = 16;
export const SECRET_MAX_CHARS = 256;

export type ChannelField = 'type' | 'name' | 'target' | 'secret';
const CHANNEL_FIELDS: readonly ChannelField[] = ['type', 'name', 'target', 'secret'];

/** What the "Add channel" form holds; `type` is empty until one is chosen. */
export interface ChannelFormValues {
  type: ChannelType | '';
  name: string;
  target: string;
  secret: string;
}

export type ChannelFieldErrors = Partial<Record<ChannelField, string>>;

/** Characters as Rust counts them (Unicode scalar values), not UTF-16 units. */
function charCount(value: string): number {
  return [...value].length;
}

export function isChannelType(value: string): value is ChannelType {
  return (CHANNEL_TYPES as readonly string[]).includes(value);
}

/** `local@domain.tld`: no whitespace, one `@`, a dot inside the domain (costscope_core::email). */
export function looksLikeEmail(email: string): boolean {
  if (/\s/.test(email) || new TextEncoder().encode(email).length > 254) return false;
  const at = email.indexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  return (
    local.length > 0 &&
    !domain.includes('@') &&
    domain.includes('.') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.') &&
    !domain.includes('..')
  );
}

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** `https://…`, or `http://` to this machine only (localhost, 127.0.0.0/8, [::1]). */
export function isAllowedWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!url.hostname) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  return url.hostname === 'localhost' || url.hostname === '[::1]' || LOOPBACK_V4.test(url.hostname);
}

/** The form's problems, one message per field; empty when the channel may be sent. */
export function validateChannel(values: ChannelFormValues): ChannelFieldErrors {
  const errors: ChannelFieldErrors = {};
  const type = values.type;
  if (!isChannelType(type)) errors.type = CHANNEL_RULE_MESSAGES.type;

  const name = values.name.trim();
  if (!name) errors.name = CHANNEL_RULE_MESSAGES.nameRequired;
  else if (charCount(name) > NAME_MAX_CHARS) errors.name = CHANNEL_RULE_MESSAGES.nameTooLong;

  const target = values.target.trim();
  if (type === 'email') {
    if (!looksLikeEmail(target)) errors.target = CHANNEL_RULE_MESSAGES.email;
  } else if (type) {
    if (charCount(target) > URL_MAX_CHARS) errors.target = CHANNEL_RULE_MESSAGES.urlTooLong;
    else if (!isAllowedWebhookUrl(target)) errors.target = CHANNEL_RULE_MESSAGES.url;
  }

  if (type === 'webhook' && values.secret !== '') {
    const length = charCount(values.secret);
    if (length < SECRET_MIN_CHARS || length > SECRET_MAX_CHARS) errors.secret = CHANNEL_RULE_MESSAGES.secretLength;
  }
  return errors;
}

/** The POST body of a valid form: trimmed name and target; a secret only for a webhook that has one. */
export function toCreateRequest(values: ChannelFormValues & { type: ChannelType }): CreateChannelRequest {
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
