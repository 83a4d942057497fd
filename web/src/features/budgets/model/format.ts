/** Budget money and percent display (spec 2 §9: USD without decimals; chart values abbreviated K/M/B). */
import { formatCurrency } from '@/lib/cost/format';

/** '$5,310': dollars without decimals; '€5,310' in the budget answer's `currency` when given. */
export function formatUsd(value: number, currency?: string): string {
  return formatCurrency(value, { decimals: 0, currency });
}

const COMPACT_UNITS = [
  { size: 1e3, suffix: 'K' },
  { size: 1e6, suffix: 'M' },
  { size: 1e9, suffix: 'B' },
] as const;

/** '$5.3K', '$1.2M', '$3B' (one decimal, dropped when it is 0); '$950' below a thousand. */
export function formatUsdCompact(value: number): string {
  const finite = Number.isFinite(value) ? value : 0;
  const sign = finite < 0 ? '-' : '';
  const size = Math.abs(finite);
  let text = String(Math.round(size));
  let shown = Math.round(size);
  // Move to the next unit while the shown number reaches 1000: 999,960 is '$1M', not '$1000K'.
  for (const unit of COMPACT_UNITS) {
    if (shown < 1000) break;
    shown = Math.round((size / unit.size) * 10) / 10;
    text = `${trimDecimal(shown)}${unit.suffix}`;
  }
  return text === '0' ? '$0' : `${sign}$${text}`;
}

function trimDecimal(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** '106.2%': one decimal, no sign; '0.0%' when there is no number. */
export function formatPercent(value: number): string {
  const finite = Number.isFinite(value) ? value : 0;
  const rounded = Math.round(finite * 10) / 10;
  return `${(rounded === 0 ? 0 : rounded).toFixed(1)}%`;
}
