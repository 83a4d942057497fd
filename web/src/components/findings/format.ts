import { isApiError } from '@/api/api-error';
import { formatCurrency } from '@/lib/cost/format';
import type { CurrencyAmount } from '@/components/inventory';
import type { CostPeriod } from './types';

/** What a saving or cost shows when no line item names the resource. */
export const NO_BILLED_COST = 'no billed cost found';

/** An amount in the answer's currency, or "no billed cost found" for null. */
export function moneyOrNone(amount: number | null, currency: string): string {
  return amount === null ? NO_BILLED_COST : formatCurrency(amount, { currency });
}

function day(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** "2026-10-27 to 2026-11-26" (UTC days) of a cost period. */
export function periodText(period: CostPeriod): string {
  return `${day(period.start_time)} to ${day(period.end_time)}`;
}

/** "€4.00, £2.00": amounts in other currencies, left out of the figures. */
export function otherCurrenciesText(amounts: readonly CurrencyAmount[]): string {
  return amounts.map((amount) => formatCurrency(amount.amount, { currency: amount.currency })).join(', ');
}

/** The server's own message of a failed call, else `fallback` (not a generic status text). */
export function failureText(error: unknown, fallback: string): string {
  return isApiError(error) && error.serverMessage ? error.serverMessage : fallback;
}
