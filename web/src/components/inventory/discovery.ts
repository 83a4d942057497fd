/** The on-demand discovery trigger's rules and messages (spec 2 §4 Discovery trigger, §8 Discovery, §9). */
import { isApiError } from '@/api/api-error';
import type { Customer } from '@/api/types';
import type { JobTriggerResponse } from './types';

export const DISCOVERY_MESSAGES = {
  success: 'Triggered on-demand discovery, please wait for few mins to reflect the changes.',
  alreadyRunning: 'On-demand discovery is already running. Please wait.',
  limitReached: 'On-demand discovery limit reached, Please upgrade the account to increase the limit.',
  failed: 'An error occurred while triggering the job.',
  unexpected: 'An unexpected error occurred.',
  noAnswer: 'Failed to trigger discovery job. Please try again.',
} as const;

/** §9: the button stays disabled this long after the call. */
export const DISCOVERY_COOLDOWN_MS = 2_000;
/** §9: the toast closes after this long. */
export const DISCOVERY_TOAST_MS = 5_000;
/** Spec 2 §9 demo customer id (the server also marks it `is_demo`). */
export const DEMO_CUSTOMER_ID = 7;

export function isDemoCustomer(customer: Pick<Customer, 'id' | 'is_demo'> | undefined): boolean {
  return Boolean(customer && (customer.is_demo || customer.id === DEMO_CUSTOMER_ID));
}

export interface DiscoveryOutcome {
  severity: 'success' | 'warning' | 'error';
  message: string;
  /** The server's own words when they add to a generic message. */
  detail?: string;
}

function fromDetails(details: string): DiscoveryOutcome {
  const text = details.toLowerCase();
  if (text.includes('already running')) return { severity: 'warning', message: DISCOVERY_MESSAGES.alreadyRunning };
  if (text.includes('limit reached')) return { severity: 'warning', message: DISCOVERY_MESSAGES.limitReached };
  return { severity: 'error', message: DISCOVERY_MESSAGES.failed, detail: details };
}

/** §7: success is `data: true`, or `data.details` text (read like a failure's details). */
export function outcomeOfAnswer(answer: JobTriggerResponse | undefined): DiscoveryOutcome {
  if (answer?.data === true) return { severity: 'success', message: DISCOVERY_MESSAGES.success };
  const details = typeof answer?.data === 'object' && answer.data !== null ? answer.data.details : undefined;
  if (typeof details === 'string' && details) return fromDetails(details);
  return { severity: 'error', message: DISCOVERY_MESSAGES.noAnswer };
}

/** A failed call: the details text (409 / 429), the server's message (e.g. 422), or none (network). */
export function outcomeOfError(error: unknown): DiscoveryOutcome {
  if (!isApiError(error) || error.status === 0) return { severity: 'error', message: DISCOVERY_MESSAGES.unexpected };
  const data = error.details?.['data'];
  const nested = typeof data === 'object' && data !== null ? (data as { details?: unknown }).details : undefined;
  const details = typeof error.details?.['details'] === 'string' ? (error.details['details'] as string) : typeof nested === 'string' ? nested : undefined;
  return fromDetails(details ?? error.serverMessage ?? '');
}
