/**
 * Charge types (spec 1 §3 "Cost inclusions", §5 provider inclusions, §7). Values are the
 * provider-native `cost_type` names the API stores and accepts (docs/API-COST.md "Charge types");
 * labels are what the Include multi-select shows.
 */
import type { CostTypeSelection } from './api';

/** Charge type name (as the API spells it) → included. */
export type CostInclusions = Record<string, boolean>;

export interface ChargeTypeOption {
  value: string;
  label: string;
}

/** The charge types the API documents, grouped by meaning (usage, tax, fees, commitments, credits). */
export const CHARGE_TYPES: ReadonlyArray<ChargeTypeOption> = [
  { value: 'Usage', label: 'Usage' },
  { value: 'regular', label: 'Usage (GCP)' },
  { value: 'DiscountedUsage', label: 'Reserved Instance covered usage' },
  { value: 'SavingsPlanCoveredUsage', label: 'Savings Plan covered usage' },
  { value: 'Tax', label: 'Tax' },
  { value: 'tax', label: 'Tax (GCP)' },
  { value: 'Fee', label: 'Fee' },
  { value: 'RIFee', label: 'Reserved Instance fee' },
  { value: 'SavingsPlanRecurringFee', label: 'Savings Plan recurring fee' },
  { value: 'SavingsPlanUpfrontFee', label: 'Savings Plan upfront fee' },
  { value: 'Purchase', label: 'Purchase' },
  { value: 'Credit', label: 'Credit' },
  { value: 'Refund', label: 'Refund' },
  { value: 'Discount', label: 'Discount' },
  { value: 'SavingsPlanNegation', label: 'Savings Plan negation' },
  { value: 'Adjustment', label: 'Adjustment' },
  { value: 'adjustment', label: 'Adjustment (GCP)' },
  { value: 'rounding_error', label: 'Rounding error (GCP)' },
];

function only(included: string[]): CostInclusions {
  return Object.fromEntries(CHARGE_TYPES.map(({ value }) => [value, included.includes(value)]));
}

/** §3: Usage and regular (GCP usage) are included by default, nothing else. */
export const DEFAULT_INCLUSIONS: CostInclusions = only(['Usage', 'regular']);

/** §3: the filter context also includes credits, discounts, refunds and taxes by default. */
export const FILTER_CONTEXT_INCLUSIONS: CostInclusions = only(['Usage', 'regular', 'Credit', 'Discount', 'Refund', 'Tax', 'tax']);

/** §7: the charge types Mission Control's spend call asks for. */
export const SPEND_COST_TYPES: ReadonlyArray<string> = ['Usage', 'Tax', 'Fee', 'regular', 'tax', 'Credit', 'Refund'];

/** §5: the charge types per provider (GCP regular and tax; AWS Usage, Tax and Fee; otherwise all of them). */
export function providerCostTypes(provider: string | null | undefined): string[] {
  const code = provider?.toLowerCase();
  if (code === 'gcp') return ['regular', 'tax'];
  if (code === 'aws') return ['Usage', 'Tax', 'Fee'];
  return ['Usage', 'Tax', 'Fee', 'regular', 'tax'];
}

/** The readable name of a charge type; an unknown one keeps the API's name. */
export function chargeTypeLabel(value: string): string {
  return CHARGE_TYPES.find((option) => option.value === value)?.label ?? value;
}

/**
 * The options of an Include multi-select: the documented charge types followed by any other
 * name the API reported for the tenant (`cost_type` of POST /v2/cost/filters).
 */
export function chargeTypeOptions(reported: ReadonlyArray<string> = []): ChargeTypeOption[] {
  const known = new Set(CHARGE_TYPES.map((option) => option.value));
  const extra = [...new Set(reported)].filter((value) => value && !known.has(value)).sort();
  return [...CHARGE_TYPES, ...extra.map((value) => ({ value, label: value }))];
}

/** The included names, in the order of the map. */
export function includedChargeTypes(inclusions: CostInclusions): string[] {
  return Object.entries(inclusions)
    .filter(([, included]) => included)
    .map(([name]) => name);
}

/**
 * The API's `cost_type` for the inclusions: `{ inclusions: [...] }` with every included name, or
 * undefined (= every charge type, as the API reads an absent value) when nothing is included or
 * when every documented charge type is.
 */
export function inclusionsToCostType(inclusions: CostInclusions): (CostTypeSelection & { inclusions: string[] }) | undefined {
  const included = includedChargeTypes(inclusions);
  if (included.length === 0) return undefined;
  if (CHARGE_TYPES.every(({ value }) => inclusions[value])) return undefined;
  return { inclusions: included };
}

/** Which charge-type preset (docs/ANALYST-FLOW.md "Charge-type presets (Include)"). */
export type ChargeTypePresetId = 'all' | 'usage' | 'no-credits' | 'no-tax';

export interface ChargeTypePreset {
  id: ChargeTypePresetId;
  label: string;
  /** The charge types the preset ticks, among the offered ones (documented + reported). */
  types(offered: ReadonlyArray<string>): string[];
}

/** The charge types of "Usage only": usage as AWS and GCP bill it, with commitment-covered usage. */
export const USAGE_CHARGE_TYPES: ReadonlyArray<string> = ['Usage', 'regular', 'DiscountedUsage', 'SavingsPlanCoveredUsage'];
/** What "Exclude credits and refunds" leaves out. */
export const CREDIT_CHARGE_TYPES: ReadonlyArray<string> = ['Credit', 'Refund', 'Discount'];
/** What "Exclude tax" leaves out. */
export const TAX_CHARGE_TYPES: ReadonlyArray<string> = ['Tax', 'tax'];

const except = (offered: ReadonlyArray<string>, left: ReadonlyArray<string>) => offered.filter((name) => !left.includes(name));

/** The Include select's one-click presets, in the order the menu shows them. */
export const CHARGE_TYPE_PRESETS: ReadonlyArray<ChargeTypePreset> = [
  { id: 'all', label: 'All charges', types: (offered) => [...offered] },
  { id: 'usage', label: 'Usage only', types: () => [...USAGE_CHARGE_TYPES] },
  { id: 'no-credits', label: 'Exclude credits and refunds', types: (offered) => except(offered, CREDIT_CHARGE_TYPES) },
  { id: 'no-tax', label: 'Exclude tax', types: (offered) => except(offered, TAX_CHARGE_TYPES) },
];

/**
 * The inclusions that tick exactly `names`: every documented and offered charge type is listed
 * (false unless named), so the map says what is left out as well as what is in.
 */
export function inclusionsOf(names: ReadonlyArray<string>, offered: ReadonlyArray<string> = []): CostInclusions {
  const next: CostInclusions = {};
  for (const { value } of CHARGE_TYPES) next[value] = false;
  for (const name of offered) next[name] = false;
  for (const name of names) next[name] = true;
  return next;
}

/** The inclusions a preset sets, given the offered charge types. */
export function presetInclusions(preset: ChargeTypePreset, offered: ReadonlyArray<string>): CostInclusions {
  return inclusionsOf(preset.types(offered), offered);
}

/** What a selection counts: 'all' when the request sends no `cost_type`, else the set it sends. */
function counted(inclusions: CostInclusions): 'all' | Set<string> {
  const costType = inclusionsToCostType(inclusions);
  return costType ? new Set(costType.inclusions) : 'all';
}

function sameCount(a: 'all' | Set<string>, b: 'all' | Set<string>): boolean {
  if (a === 'all' || b === 'all') return a === b;
  return a.size === b.size && [...a].every((name) => b.has(name));
}

/**
 * The preset the selection equals, or null. Equal means the same request: the same charge types
 * asked for, or — for "All charges" — no `cost_type` at all because every documented type is
 * ticked. An empty selection matches none (the select shows "All charge types" for it).
 * `offered` is every charge type the select offers (`chargeTypeOptions(...)` values).
 */
export function matchingPreset(inclusions: CostInclusions, offered: ReadonlyArray<string>): ChargeTypePreset | null {
  if (includedChargeTypes(inclusions).length === 0) return null;
  const selection = counted(inclusions);
  return CHARGE_TYPE_PRESETS.find((preset) => sameCount(selection, counted(presetInclusions(preset, offered)))) ?? null;
}
