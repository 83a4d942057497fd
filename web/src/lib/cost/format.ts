/**
 * Money and percent formatting (spec 1 §9 Display): amounts in the currency of the answer they
 * come from (USD when none is given), chart amounts, 1-decimal percents.
 */

/** The currency of an amount whose answer names none (every answer before multi-currency). */
export const DEFAULT_CURRENCY = 'USD';

const currencyFormats = new Map<string, Intl.NumberFormat | null>();

/** en-US money format of a currency ("$", "€", "£", "¥", "CHF "); null for a code Intl refuses. */
function currencyFormat(currency: string, decimals: number | undefined): Intl.NumberFormat | null {
  const key = `${currency}:${decimals ?? ''}`;
  let format = currencyFormats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        ...(decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
      });
    } catch {
      format = null;
    }
    currencyFormats.set(key, format);
  }
  return format;
}

/** The decimals a currency is written with: 2 for USD, EUR and GBP, 0 for JPY. */
export function currencyDecimals(currency: string = DEFAULT_CURRENCY): number {
  return currencyFormat(currency, undefined)?.resolvedOptions().maximumFractionDigits ?? 2;
}

export interface MoneyOptions {
  /** Decimals to show; the currency's own (2, or 0 for JPY) unless told (the dashboard cards pass 0). */
  decimals?: number;
  /** ISO 4217 code of the amount: the `currency` of the answer it comes from (USD when absent). */
  currency?: string | null;
}

/** "$1,234.56", "€1,234.56", "£1,234.56", "¥1,235"; a code Intl does not know is written after the number. */
export function formatCurrency(amount: number, options?: MoneyOptions): string {
  const currency = options?.currency || DEFAULT_CURRENCY;
  const decimals = options?.decimals ?? currencyDecimals(currency);
  const finite = Number.isFinite(amount) ? amount : 0;
  // Never "-$0": a negative amount that rounds to zero is zero.
  const value = Math.abs(finite) < 0.5 * 10 ** -decimals ? 0 : finite;
  const format = currencyFormat(currency, decimals);
  if (format) return format.format(value);
  const number = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return `${number.format(value)} ${currency}`;
}

/** Decimals of a chart amount: 2, or up to 6 so that a small amount shows two significant digits. */
export function chartDecimals(amount: number): number {
  const size = Math.abs(amount);
  if (!Number.isFinite(size) || size === 0 || size >= 1) return 2;
  return Math.min(6, Math.max(2, Math.ceil(-Math.log10(size)) + 1));
}

/**
 * A chart's amount (axis, tooltip, table): 2 decimals, 2–6 for amounts below $1 (§9); in a
 * currency without minor units (JPY) whole units from 1 up.
 */
export function formatChartAmount(amount: number, currency?: string | null): string {
  const size = Math.abs(amount);
  const whole = currencyDecimals(currency || DEFAULT_CURRENCY) === 0 && (size >= 1 || size === 0 || !Number.isFinite(size));
  return formatCurrency(amount, { decimals: whole ? 0 : chartDecimals(amount), currency });
}

/** A share in percent as "42.5%" (1 decimal, §9; never "-0.0%"); "—" when there is none. */
export function formatShare(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  const rounded = Math.round(share * 10) / 10;
  return `${rounded === 0 ? '0.0' : rounded.toFixed(1)}%`;
}

/** "+12.5%", "-3.0%", "0.0%" (1 decimal, with sign); "—" when there is nothing to compare. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const rounded = Math.round(value * 10) / 10;
  if (rounded === 0) return '0.0%';
  return `${rounded > 0 ? '+' : ''}${rounded.toFixed(1)}%`;
}
