import type { CurrencySettings } from '../types';

/** The two currencies of a summary pair, "GBP→USD" → ["GBP", "USD"]. */
export function pairCurrencies(pair: string): string[] {
  return pair
    .split('→')
    .map((code) => code.trim())
    .filter((code) => code.length > 0);
}

/**
 * The currencies a display currency can be chosen from: the data's own (by billed cost), then
 * those the rates convert to or from, then the current choice; each once.
 */
export function displayCurrencyOptions(settings: CurrencySettings): string[] {
  const codes = [
    ...settings.dataCurrencies.map((c) => c.currency),
    ...[...new Set(settings.rates.pairs.flatMap(pairCurrencies))].sort(),
    ...(settings.displayCurrency ? [settings.displayCurrency] : []),
  ];
  return [...new Set(codes)];
}

/** The currency answers are in without a display currency: the one with the most billed cost. */
export function mainCurrency(settings: CurrencySettings): string | undefined {
  return settings.dataCurrencies[0]?.currency;
}
