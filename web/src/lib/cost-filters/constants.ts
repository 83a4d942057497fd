import type { ConditionField, Provider, TagValueOperator, ValueOperator } from './types';

/** Spec 1 §2.12: the three clouds a rule can always start from (any provider with data too). */
export const PROVIDERS: ReadonlyArray<{ value: Provider; label: string }> = [
  { value: 'aws', label: 'AWS' },
  { value: 'gcp', label: 'GCP' },
  { value: 'azure', label: 'Azure' },
];

/** Spec 1 §9 / §8: the provider list when the unfiltered options call fails. */
export const DEFAULT_PROVIDERS: ReadonlyArray<Provider> = ['aws', 'gcp'];

export const CONDITION_FIELDS: ReadonlyArray<{ value: ConditionField; label: string }> = [
  { value: 'service', label: 'Service' },
  { value: 'region', label: 'Region' },
  { value: 'account', label: 'Account' },
  { value: 'usage_type', label: 'Usage Type' },
  { value: 'tag', label: 'Tag' },
];

export const VALUE_OPERATORS: ReadonlyArray<{ value: ValueOperator; label: string }> = [
  { value: 'equals', label: 'equals' },
  { value: 'not_equals', label: 'not equals' },
];

/** A tag condition's operators: the value operators, and two that take no value. */
export const TAG_VALUE_OPERATORS: ReadonlyArray<{ value: TagValueOperator; label: string }> = [
  ...VALUE_OPERATORS,
  { value: 'is_empty', label: 'is missing' },
  { value: 'is_not_empty', label: 'is present' },
];

/** Whether a tag operator takes no values ("is missing", "is present"). */
export function isValuelessTagOperator(operator: unknown): operator is 'is_empty' | 'is_not_empty' {
  return operator === 'is_empty' || operator === 'is_not_empty';
}

/** "team is missing" / "team is present": a valueless tag condition in words. */
export function describeTagPresence(key: string, operator: 'is_empty' | 'is_not_empty'): string {
  const label = TAG_VALUE_OPERATORS.find((option) => option.value === operator)?.label ?? operator;
  return `${key} ${label}`;
}

/** Spec 1 §9 limits and timings. */
export const MAX_FILTERS_PER_GROUP = 20;
export const MAX_FILTER_VALUE_LENGTH = 100;
export const PROVIDER_OPTIONS_DEBOUNCE_MS = 300;
export const FILTER_CACHE_TTL_MS = 300_000;
export const FILTER_CACHE_MAX_ENTRIES = 50;
export const DROPDOWN_MAX_HEIGHT = 200;
export const MAX_CHIPS_DISPLAYED = 5;
export const MULTI_SELECT_MAX_CHIPS = 2;

/** Spec 1 §5 panel Apply alerts. */
export const APPLY_MESSAGES = {
  providerMissing: 'Please select a Cloud Provider for all rules.',
  conditionIncomplete: 'Please complete all filter conditions.',
  conditionWithoutProvider: 'Please select a Cloud Provider for this rule first.',
} as const;

/** The label of a condition's field; accounts are "Projects" on GCP (spec 1 §2.12). */
export function conditionFieldLabel(field: ConditionField, provider: Provider | ''): string {
  if (field === 'account' && provider === 'gcp') return 'Projects';
  return CONDITION_FIELDS.find((f) => f.value === field)?.label ?? field;
}

/** A cloud's usual name (AWS, GCP, Azure); any other provider by its name as given. */
export function providerLabel(provider: string): string {
  return PROVIDERS.find((p) => p.value === provider.toLowerCase())?.label ?? provider;
}

/**
 * A provider value as the API stores it: a cloud's code in any letter case becomes the code;
 * any other provider keeps its name as written (trimmed). '' for a blank value.
 */
export function providerCode(value: string): Provider {
  const trimmed = value.trim();
  const code = trimmed.toLowerCase();
  return PROVIDERS.some((p) => p.value === code) ? code : trimmed;
}

/**
 * The options of a rule's provider dropdown: the three clouds, then every other provider with
 * data (`present`, codes as the API answers them) by name.
 */
export function providerChoices(present: ReadonlyArray<Provider> = []): Array<{ value: Provider; label: string }> {
  const others = [...new Set(present.map(providerCode))]
    .filter((code) => code !== '' && !PROVIDERS.some((p) => p.value === code))
    .sort((a, b) => a.localeCompare(b));
  return [...PROVIDERS, ...others.map((value) => ({ value, label: value }))];
}
