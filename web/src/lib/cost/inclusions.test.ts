import { describe, expect, it } from 'vitest';
import {
  CHARGE_TYPES,
  DEFAULT_INCLUSIONS,
  FILTER_CONTEXT_INCLUSIONS,
  chargeTypeLabel,
  chargeTypeOptions,
  inclusionsToCostType,
  providerCostTypes,
} from './inclusions';

describe('inclusions', () => {
  it('includes Usage and GCP regular usage by default', () => {
    expect(inclusionsToCostType(DEFAULT_INCLUSIONS)).toEqual({ inclusions: ['Usage', 'regular'] });
  });

  it('adds credits, discounts, refunds and taxes in the filter context', () => {
    expect(inclusionsToCostType(FILTER_CONTEXT_INCLUSIONS)?.inclusions.sort()).toEqual(
      ['Credit', 'Discount', 'Refund', 'Tax', 'Usage', 'regular', 'tax'].sort(),
    );
  });

  it('sends the API names of the included charge types', () => {
    expect(inclusionsToCostType({ ...DEFAULT_INCLUSIONS, Credit: true, Tax: true, Usage: false })).toEqual({
      inclusions: ['regular', 'Tax', 'Credit'],
    });
    expect(inclusionsToCostType({ RIFee: true, SomethingNew: true, Usage: false })).toEqual({
      inclusions: ['RIFee', 'SomethingNew'],
    });
  });

  it('sends nothing (every charge type) when nothing or everything is included', () => {
    expect(inclusionsToCostType({})).toBeUndefined();
    expect(inclusionsToCostType({ Usage: false, Tax: false })).toBeUndefined();
    expect(inclusionsToCostType(Object.fromEntries(CHARGE_TYPES.map((t) => [t.value, true])))).toBeUndefined();
  });

  it('labels charge types readably and keeps unknown names', () => {
    expect(chargeTypeLabel('regular')).toBe('Usage (GCP)');
    expect(chargeTypeLabel('Tax')).toBe('Tax');
    expect(chargeTypeLabel('BundledDiscount')).toBe('BundledDiscount');
  });

  it('adds the names the API reported to the options', () => {
    const options = chargeTypeOptions(['Usage', 'EdpDiscount', 'BundledDiscount', 'EdpDiscount']);
    expect(options.slice(0, CHARGE_TYPES.length)).toEqual(CHARGE_TYPES);
    expect(options.slice(CHARGE_TYPES.length)).toEqual([
      { value: 'BundledDiscount', label: 'BundledDiscount' },
      { value: 'EdpDiscount', label: 'EdpDiscount' },
    ]);
  });

  it('gives each provider its charge types', () => {
    expect(providerCostTypes('gcp')).toEqual(['regular', 'tax']);
    expect(providerCostTypes('AWS')).toEqual(['Usage', 'Tax', 'Fee']);
    expect(providerCostTypes('azure')).toEqual(['Usage', 'Tax', 'Fee', 'regular', 'tax']);
  });
});
