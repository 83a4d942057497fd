import { addDays } from 'date-fns';

export const DEFAULT_TRIAL_DAYS = 30;
export const TRIAL_WARNING_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whole days left in the trial, counted up (a trial ending in 2.5 days has 3 days left).
 * A missing or unreadable end date means the default 30 days from now.
 */
export function trialDaysRemaining(
  trialEnd: string | number | Date | null | undefined,
  now: Date = new Date(),
): number {
  let end: Date | null = null;
  if (trialEnd instanceof Date) end = trialEnd;
  else if (typeof trialEnd === 'string' && trialEnd) end = new Date(trialEnd);
  else if (typeof trialEnd === 'number') end = new Date(trialEnd);
  if (!end || Number.isNaN(end.getTime())) end = addDays(now, DEFAULT_TRIAL_DAYS);
  return Math.ceil((end.getTime() - now.getTime()) / DAY_MS);
}

/** The trial has ended at zero or fewer days remaining. */
export function isTrialEnded(daysRemaining: number): boolean {
  return daysRemaining <= 0;
}

/** Days left from the customer's EndTime (unix seconds). */
export function daysUntilEpochSeconds(endTime: number, now: Date = new Date()): number {
  return trialDaysRemaining(endTime * 1000, now);
}

/**
 * Spec 2 §4: the trial modal shows for free-tier customers (Tier 0) whose trial end time is
 * known and who have 7 or fewer days left.
 */
export function shouldShowTrialModal(
  customer: { Tier?: number | null; EndTime?: number | null } | undefined,
  now: Date = new Date(),
): boolean {
  if (!customer || customer.Tier !== 0) return false;
  if (customer.EndTime === null || customer.EndTime === undefined) return false;
  return daysUntilEpochSeconds(customer.EndTime, now) <= TRIAL_WARNING_DAYS;
}

export function formatDays(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

