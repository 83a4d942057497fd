import { errorMessage, isApiError } from '@/api/api-error';
import type { AnomalySettings } from '../types';
import { ANOMALY_MESSAGES } from './messages';

// The server judges the settings (docs/ANOMALIES.md: ranges, tag key count and length, the
// tenant's channels) and answers 422 with `details.<field>`; the form keeps no copy of those
// rules. It only turns the percentage a person types into the fraction the API takes, and
// stops a field that is not a number at all.

export type SettingsField = 'relativeThreshold' | 'absoluteThreshold' | 'tagKeys' | 'channelIds';
const SETTINGS_FIELDS: readonly SettingsField[] = ['relativeThreshold', 'absoluteThreshold', 'tagKeys', 'channelIds'];

export type SettingsFieldErrors = Partial<Record<SettingsField, string>>;

/** What the form holds: the relative threshold as a percentage, both thresholds as typed. */
export interface SettingsFormValues {
  relativePercent: string;
  absolute: string;
  tagKeys: string[];
  channelIds: number[];
}

/** 0.2 → "20" (12 significant digits, so 0.07 reads "7", not "7.000000000000001"). */
export function fractionToPercent(fraction: number): string {
  return String(Number.parseFloat((fraction * 100).toPrecision(12)));
}

/** "20" → 0.2. */
export function percentToFraction(percent: number): number {
  return Number.parseFloat((percent / 100).toPrecision(12));
}

export function toFormValues(settings: AnomalySettings): SettingsFormValues {
  return {
    relativePercent: fractionToPercent(settings.relativeThreshold),
    absolute: String(settings.absoluteThreshold),
    tagKeys: [...settings.tagKeys],
    channelIds: [...settings.channelIds],
  };
}

function parseNumber(value: string): number | null {
  if (value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** The PUT body, or the fields that are not numbers (everything else is the server's to judge). */
export function toSettings(values: SettingsFormValues): { settings: AnomalySettings } | { errors: SettingsFieldErrors } {
  const relative = parseNumber(values.relativePercent);
  const absolute = parseNumber(values.absolute);
  const errors: SettingsFieldErrors = {};
  if (relative === null) errors.relativeThreshold = ANOMALY_MESSAGES.notANumber;
  if (absolute === null) errors.absoluteThreshold = ANOMALY_MESSAGES.notANumber;
  if (relative === null || absolute === null) return { errors };
  return {
    settings: {
      relativeThreshold: percentToFraction(relative),
      absoluteThreshold: absolute,
      tagKeys: values.tagKeys,
      channelIds: values.channelIds,
    },
  };
}

/** A 422 detail is a list of messages (the server's shape) or, leniently, one message. */
function firstMessage(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.find((m): m is string => typeof m === 'string');
  return typeof value === 'string' ? value : undefined;
}

/**
 * Where a refused save is shown: a 422's `details` under their fields (the first message of
 * each), anything else (403, a detail naming no field, the network) above the form.
 */
export function settingsProblems(error: unknown): { fields: SettingsFieldErrors; form: string | null } {
  if (!isApiError(error)) return { fields: {}, form: ANOMALY_MESSAGES.settingsNotSaved };
  if (error.status !== 422) return { fields: {}, form: errorMessage(error, ANOMALY_MESSAGES.settingsNotSaved) };
  const fields: SettingsFieldErrors = {};
  let unplaced = false;
  for (const [field, value] of Object.entries(error.details ?? {})) {
    const message = firstMessage(value);
    if (!message) continue;
    if ((SETTINGS_FIELDS as readonly string[]).includes(field)) fields[field as SettingsField] = message;
    else unplaced = true;
  }
  return { fields, form: Object.keys(fields).length > 0 && !unplaced ? null : error.message };
}
