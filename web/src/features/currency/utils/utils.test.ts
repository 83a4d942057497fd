import { describe, expect, it } from 'vitest';
import type { CurrencySettings } from '../types';
import { displayCurrencyOptions, mainCurrency, pairCurrencies } from './currency-options';
import { TEMPLATE_HEADER, exchangeRatesTemplate } from './template';

const settings = (overrides: Partial<CurrencySettings> = {}): CurrencySettings => ({
  displayCurrency: null,
  dataCurrencies: [
    { currency: 'USD', billedCost: 900 },
    { currency: 'EUR', billedCost: 100 },
    { currency: 'GBP', billedCost: 5 },
  ],
  rates: { count: 0, firstDate: null, lastDate: null, pairs: [] },
  ...overrides,
});

describe('display currency options', () => {
  it('offers the data’s currencies by cost, then the rates’ other currencies, each once', () => {
    const s = settings({ rates: { count: 2, firstDate: '2026-01-01', lastDate: '2026-01-01', pairs: ['USD→JPY', 'GBP→CHF'] } });
    expect(displayCurrencyOptions(s)).toEqual(['USD', 'EUR', 'GBP', 'CHF', 'JPY']);
    expect(pairCurrencies('GBP→USD')).toEqual(['GBP', 'USD']);
  });

  it('keeps the current choice even when nothing else names it', () => {
    expect(displayCurrencyOptions(settings({ displayCurrency: 'SEK' }))).toEqual(['USD', 'EUR', 'GBP', 'SEK']);
  });

  it('takes the currency with the most billed cost as the main one', () => {
    expect(mainCurrency(settings())).toBe('USD');
    expect(mainCurrency(settings({ dataCurrencies: [] }))).toBeUndefined();
  });
});

describe('exchange rates template', () => {
  const now = new Date('2026-11-23T12:00:00Z');

  it('has a row to fill in for each other currency of the data, to the main currency', () => {
    expect(exchangeRatesTemplate(settings(), now)).toBe(`${TEMPLATE_HEADER}\r\n2026-11-01,EUR,USD,\r\n2026-11-01,GBP,USD,\r\n`);
  });

  it('converts to the display currency when there is one', () => {
    expect(exchangeRatesTemplate(settings({ displayCurrency: 'EUR' }), now)).toBe(
      `${TEMPLATE_HEADER}\r\n2026-11-01,USD,EUR,\r\n2026-11-01,GBP,EUR,\r\n`,
    );
  });

  it('is the header alone for data in one currency', () => {
    expect(exchangeRatesTemplate(settings({ dataCurrencies: [{ currency: 'USD', billedCost: 1 }] }), now)).toBe(`${TEMPLATE_HEADER}\r\n`);
  });
});
