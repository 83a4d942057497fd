/**
 * The numbers of the four spend cards, from one period of POST /v2/cost/spend (spec 1 §3 Spend
 * response, §9 Mission Control constants).
 */
import type { SpendPeriod } from '@/lib/cost';

/** §9: the credits bar is green below 60 %, amber from 60 % to under 80 %, red from 80 %. */
export const CREDIT_AMBER_FROM = 60;
export const CREDIT_RED_FROM = 80;
/** §9: a provider's bar is never narrower than 2 % (so a small provider stays visible). */
export const PROVIDER_BAR_MIN_WIDTH = 2;

/** The charge types of the spend answer that hold credits and refunds (always present). */
export const CREDIT_COST_TYPE = 'Credit';
export const REFUND_COST_TYPE = 'Refund';

export type CreditBand = 'green' | 'amber' | 'red';

export function creditBand(percent: number): CreditBand {
  if (percent >= CREDIT_RED_FROM) return 'red';
  if (percent >= CREDIT_AMBER_FROM) return 'amber';
  return 'green';
}

export interface CreditsConsumption {
  /** Credits received in the period, as a positive amount. */
  credits: number;
  /** The period's spend before credits and refunds. */
  grossSpend: number;
  /** `credits / grossSpend × 100`; null when there was no gross spend. */
  percent: number | null;
}

/**
 * Credits Consumption = how much of the period's spend credits paid for:
 *
 *   credits     = −cost_type.Credit                       (the API reports credits as negative amounts)
 *   gross spend = total_amount − cost_type.Credit − cost_type.Refund   (the spend before credits and refunds)
 *   percent     = credits / gross spend × 100
 *
 * e.g. $1,000 of charges with $250 of credits and $50 of refunds: total_amount is $700, the gross
 * spend $1,000 and the consumption 25 %.
 */
export function creditsConsumption(period: Pick<SpendPeriod, 'total_amount' | 'cost_type'>): CreditsConsumption {
  const credit = period.cost_type[CREDIT_COST_TYPE] ?? 0;
  const refund = period.cost_type[REFUND_COST_TYPE] ?? 0;
  const credits = 0 - credit;
  const grossSpend = period.total_amount - credit - refund;
  return { credits, grossSpend, percent: grossSpend > 0 ? (credits / grossSpend) * 100 : null };
}

/** Refunds received in the period, as a positive amount (the API reports them as negative). */
export function refundsReceived(period: Pick<SpendPeriod, 'cost_type'>): number {
  return 0 - (period.cost_type[REFUND_COST_TYPE] ?? 0);
}

/** A bar's width: the percent clamped to 0–100. */
export function barWidth(percent: number): number {
  return Math.min(100, Math.max(0, percent));
}

export interface ProviderShare {
  provider: string;
  amount: number;
  /** Percent of the providers' positive spend. */
  share: number;
  /** The bar's width in percent: the share, at least 2 % (0 for a provider without positive spend). */
  width: number;
}

/**
 * The providers with spend (an amount that is not $0), largest first, each with its share of the
 * providers' positive spend and its bar width (§9 minimum 2 %). Empty when no provider has spend.
 */
export function providerShares(byProvider: Readonly<Record<string, number>>): ProviderShare[] {
  const entries = Object.entries(byProvider).filter(([, amount]) => Math.abs(amount) >= 0.005);
  const positive = entries.reduce((sum, [, amount]) => sum + Math.max(0, amount), 0);
  return entries
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([provider, amount]) => {
      const share = positive > 0 && amount > 0 ? (amount / positive) * 100 : 0;
      return { provider, amount, share, width: share > 0 ? Math.max(PROVIDER_BAR_MIN_WIDTH, barWidth(share)) : 0 };
    });
}
