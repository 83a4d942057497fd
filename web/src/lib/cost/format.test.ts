import { describe, expect, it } from 'vitest';
import { chartDecimals, currencyDecimals, formatChartAmount, formatCurrency, formatPercent } from './format';

describe('formatCurrency', () => {
  it('writes US dollars with 2 decimals by default', () => {
    expect(formatCurrency(1234.567)).toBe('$1,234.57');
    expect(formatCurrency(-12)).toBe('-$12.00');
  });

  it('writes whole dollars when asked (the dashboard)', () => {
    expect(formatCurrency(98765.4, { decimals: 0 })).toBe('$98,765');
  });

  it('never writes a negative zero', () => {
    expect(formatCurrency(-0.001)).toBe('$0.00');
  });
});

describe('formatChartAmount', () => {
  it('uses 2 decimals from one dollar up', () => {
    expect(formatChartAmount(1)).toBe('$1.00');
    expect(formatChartAmount(1234.5678)).toBe('$1,234.57');
    expect(formatChartAmount(0)).toBe('$0.00');
  });

  it('uses up to 6 decimals for small amounts', () => {
    expect(formatChartAmount(0.5)).toBe('$0.50');
    expect(formatChartAmount(0.0123)).toBe('$0.012');
    expect(formatChartAmount(0.00456)).toBe('$0.0046');
    expect(formatChartAmount(0.000012)).toBe('$0.000012');
    expect(formatChartAmount(-0.0123)).toBe('-$0.012');
  });

  it('stays within 2 to 6 decimals', () => {
    for (const amount of [0.9, 0.1, 0.01, 0.001, 0.0001, 0.00001, 0.000001, 1e-9, 5, 1e6]) {
      expect(chartDecimals(amount)).toBeGreaterThanOrEqual(2);
      expect(chartDecimals(amount)).toBeLessThanOrEqual(6);
    }
    expect(formatChartAmount(1e-9)).toBe('$0.000000');
  });
});

describe('formatPercent', () => {
  it('writes one decimal and a sign', () => {
    expect(formatPercent(12.345)).toBe('+12.3%');
    expect(formatPercent(-3)).toBe('-3.0%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(0.04)).toBe('0.0%');
  });

  it('writes a dash when there is nothing to compare', () => {
    expect(formatPercent(null)).toBe('—');
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe('—');
  });
});

describe('formatting in the answer’s currency', () => {
  it('writes euros and pounds with their symbols and 2 decimals', () => {
    expect(formatCurrency(1234.567, { currency: 'EUR' })).toBe('€1,234.57');
    expect(formatCurrency(-12, { currency: 'GBP' })).toBe('-£12.00');
    expect(formatCurrency(98765.4, { currency: 'EUR', decimals: 0 })).toBe('€98,765');
  });

  it('writes yen without decimals unless told', () => {
    expect(currencyDecimals('JPY')).toBe(0);
    expect(formatCurrency(1234.567, { currency: 'JPY' })).toBe('¥1,235');
    expect(formatCurrency(1234.567, { currency: 'JPY', decimals: 2 })).toBe('¥1,234.57');
    expect(formatChartAmount(1234.4, 'JPY')).toBe('¥1,234');
    expect(formatChartAmount(0.25, 'JPY')).toBe('¥0.25');
  });

  it('keeps US dollars when the answer names no currency', () => {
    expect(formatCurrency(5, { currency: null })).toBe('$5.00');
    expect(formatCurrency(5, { currency: 'USD' })).toBe('$5.00');
    expect(formatChartAmount(0.0123, 'EUR')).toBe('€0.012');
  });

  it('never writes a negative zero in any currency', () => {
    expect(formatCurrency(-0.001, { currency: 'EUR' })).toBe('€0.00');
    expect(formatCurrency(-0.4, { currency: 'JPY' })).toBe('¥0');
  });

  it('writes a code Intl does not know after the number', () => {
    expect(formatCurrency(10, { currency: 'EURO' })).toBe('10.00 EURO');
    expect(formatCurrency(10, { currency: 'XBT' })).toMatch(/^XBT\s10\.00$/);
  });
});
