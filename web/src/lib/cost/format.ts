/** Money and percent formatting (spec 1 §9 Display): USD, chart amounts, 1-decimal percents. */

const currencyFormats = new Map<number, Intl.NumberFormat>();

function currencyFormat(decimals: number): Intl.NumberFormat {
  let format = currencyFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    currencyFormats.set(decimals, format);
  }
  return format;
}

/** "$1,234.56" (2 decimals unless told; the dashboard cards pass 0). */
export function formatCurrency(amount: number, options?: { decimals?: number }): string {
  const value = Number.isFinite(amount) ? amount : 0;
  const formatted = currencyFormat(options?.decimals ?? 2).format(value);
  // Never "-$0": a negative amount that rounds to zero is zero.
  return /^-\$0(\.0+)?$/.test(formatted) ? formatted.slice(1) : formatted;
}

/** Decimals of a chart amount: 2, or up to 6 so that a small amount shows two significant digits. */
export function chartDecimals(amount: number): number {
  const size = Math.abs(amount);
  if (!Number.isFinite(size) || size === 0 || size >= 1) return 2;
  return Math.min(6, Math.max(2, Math.ceil(-Math.log10(size)) + 1));
}

/** A chart's amount (axis, tooltip, table): 2 decimals, 2–6 for amounts below $1 (§9). */
export function formatChartAmount(amount: number): string {
  return formatCurrency(amount, { decimals: chartDecimals(amount) });
}

/** "+12.5%", "-3.0%", "0.0%" (1 decimal, with sign); "—" when there is nothing to compare. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const rounded = Math.round(value * 10) / 10;
  if (rounded === 0) return '0.0%';
  return `${rounded > 0 ? '+' : ''}${rounded.toFixed(1)}%`;
}
