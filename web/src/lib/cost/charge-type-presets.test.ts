import { describe, expect, it } from 'vitest';
import {
  CHARGE_TYPE_PRESETS,
  CHARGE_TYPES,
  DEFAULT_INCLUSIONS,
  chargeTypeOptions,
  includedChargeTypes,
  inclusionsOf,
  inclusionsToCostType,
  matchingPreset,
  presetInclusions,
  type ChargeTypePresetId,
} from './inclusions';

const DOCUMENTED = CHARGE_TYPES.map((t) => t.value);
const WITH_REPORTED = chargeTypeOptions(['EdpDiscount', 'Usage']).map((t) => t.value);
const preset = (id: ChargeTypePresetId) => CHARGE_TYPE_PRESETS.find((p) => p.id === id)!;
const ticked = (names: string[]) => inclusionsOf(names, WITH_REPORTED);

describe('charge-type presets', () => {
  it('offers All charges, Usage only, Exclude credits and refunds and Exclude tax, in that order', () => {
    expect(CHARGE_TYPE_PRESETS.map((p) => p.label)).toEqual(['All charges', 'Usage only', 'Exclude credits and refunds', 'Exclude tax']);
  });

  it('ticks the documented types of each preset among the offered ones', () => {
    expect(includedChargeTypes(presetInclusions(preset('all'), WITH_REPORTED))).toEqual([...DOCUMENTED, 'EdpDiscount']);
    expect(includedChargeTypes(presetInclusions(preset('usage'), WITH_REPORTED))).toEqual([
      'Usage',
      'regular',
      'DiscountedUsage',
      'SavingsPlanCoveredUsage',
    ]);
    const noCredits = includedChargeTypes(presetInclusions(preset('no-credits'), WITH_REPORTED));
    expect(noCredits).toEqual(WITH_REPORTED.filter((name) => !['Credit', 'Refund', 'Discount'].includes(name)));
    expect(noCredits).toContain('EdpDiscount');
    const noTax = includedChargeTypes(presetInclusions(preset('no-tax'), WITH_REPORTED));
    expect(noTax).toEqual(WITH_REPORTED.filter((name) => name !== 'Tax' && name !== 'tax'));
  });

  it('lists every offered type in the inclusions a preset sets, unticked ones as false', () => {
    const usage = presetInclusions(preset('usage'), WITH_REPORTED);
    expect(Object.keys(usage).sort()).toEqual([...WITH_REPORTED].sort());
    expect(usage.EdpDiscount).toBe(false);
    expect(usage.Credit).toBe(false);
  });

  it('sends no cost_type for All charges, and the types of the others', () => {
    expect(inclusionsToCostType(presetInclusions(preset('all'), WITH_REPORTED))).toBeUndefined();
    expect(inclusionsToCostType(presetInclusions(preset('no-tax'), DOCUMENTED))?.inclusions).not.toContain('Tax');
  });

  it('finds the preset a selection equals, whatever the order of the types', () => {
    for (const p of CHARGE_TYPE_PRESETS) {
      expect(matchingPreset(presetInclusions(p, WITH_REPORTED), WITH_REPORTED)?.id).toBe(p.id);
    }
    expect(matchingPreset(ticked(['SavingsPlanCoveredUsage', 'regular', 'DiscountedUsage', 'Usage']), WITH_REPORTED)?.label).toBe(
      'Usage only',
    );
  });

  it('matches no preset for a selection that differs by one type', () => {
    expect(matchingPreset(DEFAULT_INCLUSIONS, DOCUMENTED)).toBeNull();
    expect(matchingPreset(ticked(['Usage', 'regular', 'DiscountedUsage']), WITH_REPORTED)).toBeNull();
    const noCreditsPlusRefund = { ...presetInclusions(preset('no-credits'), WITH_REPORTED), Refund: true };
    expect(matchingPreset(noCreditsPlusRefund, WITH_REPORTED)).toBeNull();
    // A reported type left out is a different question from "Exclude tax".
    const noTaxWithoutEdp = { ...presetInclusions(preset('no-tax'), WITH_REPORTED), EdpDiscount: false };
    expect(matchingPreset(noTaxWithoutEdp, WITH_REPORTED)).toBeNull();
  });

  it('matches All charges whenever every documented type is ticked, as the request then counts everything', () => {
    expect(matchingPreset(ticked(DOCUMENTED), WITH_REPORTED)?.id).toBe('all');
  });

  it('matches no preset when nothing is ticked (shown as "All charge types")', () => {
    expect(matchingPreset(ticked([]), WITH_REPORTED)).toBeNull();
    expect(matchingPreset({}, DOCUMENTED)).toBeNull();
  });
});
