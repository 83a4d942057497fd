import type { CurrencySettings } from '../types';
import { mainCurrency } from './currency-options';

export const TEMPLATE_FILE_NAME = 'exchange-rates-template.csv';
export const TEMPLATE_HEADER = 'date,from,to,rate';

/**
 * A CSV to fill in: the header, then one row per currency of the data that is not the target
 * (the display currency, else the main currency), dated the first day of `now`'s month (UTC),
 * with the rate left for the tenant to write. One rate per pair is enough: a row uses the latest
 * rate on or before its day, else the earliest after it.
 */
export function exchangeRatesTemplate(settings: CurrencySettings, now: Date = new Date()): string {
  const target = settings.displayCurrency ?? mainCurrency(settings);
  const day = `${now.toISOString().slice(0, 7)}-01`;
  const rows = settings.dataCurrencies
    .map((c) => c.currency)
    .filter((currency) => target && currency !== target)
    .map((currency) => `${day},${currency},${target},`);
  return `${[TEMPLATE_HEADER, ...rows].join('\r\n')}\r\n`;
}
