/**
 * "Search all values" of the filter panel (docs/ANALYST-FLOW.md "Filter from anywhere"): one
 * search over every dimension of the filter options, and what choosing a match does to the rules.
 */
import { describeTagPresence, newFilterId, providerCode, providerLabel, type FilterCondition, type FilterRule, type Provider, type ProviderOptions } from '@/lib/cost-filters';

/** The dimensions searched, in the order their groups are listed. */
export type SearchDimension =
  | 'account'
  | 'service'
  | 'region'
  | 'provider'
  | 'usage_type'
  | 'charge_type'
  | 'tag_key'
  | 'tag_value'
  | 'tag_missing';

export const SEARCH_DIMENSIONS: ReadonlyArray<{ value: SearchDimension; label: string }> = [
  { value: 'account', label: 'Account' },
  { value: 'service', label: 'Service' },
  { value: 'region', label: 'Region' },
  { value: 'provider', label: 'Cloud provider' },
  { value: 'usage_type', label: 'Usage type' },
  { value: 'charge_type', label: 'Charge type' },
  { value: 'tag_key', label: 'Tag key' },
  { value: 'tag_value', label: 'Tag value' },
  // "Tag · team is missing": the spend untagged for a key.
  { value: 'tag_missing', label: 'Tag' },
];

/** Besides the key itself, the words that find "Tag · {key} is missing". */
export const UNTAGGED_WORDS: ReadonlyArray<string> = ['untagged', 'missing', 'no tag'];

/** Matches need at least this many characters typed. */
export const MIN_SEARCH_LENGTH = 2;
/** At most this many matches per dimension. */
export const MAX_MATCHES_PER_DIMENSION = 8;

/** One value of one dimension, with the providers that have it. */
export interface SearchEntry {
  dimension: SearchDimension;
  /** The value a condition gets (an account id, a provider code, a tag value …); a tag key for `tag_key` and `tag_missing`. */
  value: string;
  /** The tag key of a `tag_value`. */
  tagKey?: string;
  /** An account's name, when it has one. */
  name?: string;
  /** The providers whose options hold the value (in the order the providers were listed). */
  providers: Provider[];
}

export function dimensionLabel(dimension: SearchDimension): string {
  return SEARCH_DIMENSIONS.find((d) => d.value === dimension)?.label ?? dimension;
}

/** The value part of an entry's label: "Production (111111111111)", "AWS", "env = prod". */
export function entryValueLabel(entry: SearchEntry): string {
  switch (entry.dimension) {
    case 'account':
      return entry.name ? `${entry.name} (${entry.value})` : entry.value;
    case 'provider':
      return providerLabel(entry.value);
    case 'tag_value':
      return `${entry.tagKey} = ${entry.value}`;
    case 'tag_missing':
      return describeTagPresence(entry.value, 'is_empty');
    default:
      return entry.value;
  }
}

/** "Service · AmazonEC2". */
export function entryLabel(entry: SearchEntry): string {
  return `${dimensionLabel(entry.dimension)} · ${entryValueLabel(entry)}`;
}

/** A stable key of an entry (dimension, tag key, value). */
export function entryKey(entry: Pick<SearchEntry, 'dimension' | 'value' | 'tagKey'>): string {
  return JSON.stringify([entry.dimension, entry.tagKey ?? null, entry.value]);
}

export interface SearchIndexOptions {
  /** Offer charge types (only where the page has an Include to add them to). */
  chargeTypes?: boolean;
}

/**
 * Every value of every provider's options as one list, a value found for several providers
 * listed once with all of them. `providers` are the providers with data (the provider entries).
 * Each tag key also gives "{key} is missing" for every provider whose options came: a provider
 * whose lines never carry the key is untagged for it throughout.
 */
export function buildSearchIndex(
  providers: ReadonlyArray<Provider>,
  options: Partial<Record<Provider, ProviderOptions>>,
  include: SearchIndexOptions = {},
): SearchEntry[] {
  const byKey = new Map<string, SearchEntry>();
  const add = (entry: Omit<SearchEntry, 'providers'>, provider: Provider) => {
    const key = entryKey(entry);
    const known = byKey.get(key);
    if (known) {
      if (!known.providers.includes(provider)) known.providers.push(provider);
      if (!known.name && entry.name) known.name = entry.name;
    } else byKey.set(key, { ...entry, providers: [provider] });
  };
  const codes = [...new Set(providers.map(providerCode).filter((p) => p !== ''))];
  for (const provider of codes) add({ dimension: 'provider', value: provider }, provider);
  for (const provider of codes) {
    const found = options[provider];
    if (!found) continue;
    for (const id of found.accounts) add({ dimension: 'account', value: id, name: found.accountNames[id] || undefined }, provider);
    for (const v of found.services) add({ dimension: 'service', value: v }, provider);
    for (const v of found.regions) add({ dimension: 'region', value: v }, provider);
    for (const v of found.usageTypes) add({ dimension: 'usage_type', value: v }, provider);
    if (include.chargeTypes) for (const v of found.chargeTypes) add({ dimension: 'charge_type', value: v }, provider);
    for (const [key, values] of Object.entries(found.tags)) {
      add({ dimension: 'tag_key', value: key }, provider);
      for (const v of values) add({ dimension: 'tag_value', value: v, tagKey: key }, provider);
    }
  }
  const tagKeys = [...byKey.values()].filter((entry) => entry.dimension === 'tag_key').map((entry) => entry.value);
  const loaded = codes.filter((provider) => options[provider]);
  for (const key of tagKeys) for (const provider of loaded) add({ dimension: 'tag_missing', value: key }, provider);
  return [...byKey.values()];
}

/** The texts an entry is found by: an account by id and name, a provider by code and name. */
function searchTexts(entry: SearchEntry): string[] {
  if (entry.dimension === 'account') return entry.name ? [entry.value, entry.name] : [entry.value];
  if (entry.dimension === 'provider') return [entry.value, providerLabel(entry.value)];
  return [entry.value];
}

/** 0 = equal, 1 = starts with, 2 = contains, null = no match (all case-insensitive). */
function textRank(text: string, needle: string): number | null {
  const hay = text.toLowerCase();
  return hay === needle ? 0 : hay.startsWith(needle) ? 1 : hay.includes(needle) ? 2 : null;
}

/**
 * The best rank of an entry's texts. A missing tag is also found by the start of one of the
 * UNTAGGED_WORDS ("untag", "missing"), not by any two letters inside them ("is").
 */
function matchRank(entry: SearchEntry, needle: string): number | null {
  let best: number | null = null;
  for (const text of searchTexts(entry)) {
    const rank = textRank(text, needle);
    if (rank !== null && (best === null || rank < best)) best = rank;
  }
  if (entry.dimension === 'tag_missing') {
    for (const word of UNTAGGED_WORDS) {
      const rank = textRank(word, needle);
      if (rank !== null && rank < 2 && (best === null || rank < best)) best = rank;
    }
  }
  return best;
}

/**
 * The entries whose text holds the query (trimmed, case-insensitive substring; nothing under 2
 * characters), grouped by dimension in the order of SEARCH_DIMENSIONS, at most 8 per dimension:
 * exact matches first, then those starting with the query, then the rest, each alphabetically.
 */
export function searchValues(index: ReadonlyArray<SearchEntry>, query: string): SearchEntry[] {
  const needle = query.trim().toLowerCase();
  if (needle.length < MIN_SEARCH_LENGTH) return [];
  const out: SearchEntry[] = [];
  for (const { value: dimension } of SEARCH_DIMENSIONS) {
    const ranked = index
      .filter((e) => e.dimension === dimension)
      .map((entry) => ({ entry, rank: matchRank(entry, needle) }))
      .filter((m): m is { entry: SearchEntry; rank: number } => m.rank !== null)
      .sort((a, b) => a.rank - b.rank || entryValueLabel(a.entry).localeCompare(entryValueLabel(b.entry)));
    out.push(...ranked.slice(0, MAX_MATCHES_PER_DIMENSION).map((m) => m.entry));
  }
  return out;
}

type ConditionDimension = Exclude<SearchDimension, 'provider' | 'charge_type'>;

/** The rule condition an entry becomes (equals; a tag key alone: the key exists; a missing key: is_empty). */
function conditionFor(entry: SearchEntry & { dimension: ConditionDimension }): FilterCondition {
  const id = newFilterId('condition');
  switch (entry.dimension) {
    case 'tag_key':
      return { id, field: 'tag', operator: 'equals', value: [], tagKey: entry.value, tagValueOperator: 'equals' };
    case 'tag_value':
      return { id, field: 'tag', operator: 'equals', value: [entry.value], tagKey: entry.tagKey, tagValueOperator: 'equals' };
    case 'tag_missing':
      return { id, field: 'tag', operator: 'equals', value: [], tagKey: entry.value, tagValueOperator: 'is_empty' };
    default:
      return { id, field: entry.dimension, operator: 'equals', value: [entry.value] };
  }
}

/**
 * The rule with the condition added. An `equals` condition of the same field (and tag key) takes
 * the value beside its own ("Region equals eu-west-1, eu-west-2"), as ANDing two equal-to
 * conditions of one field would match nothing; a value it already has changes nothing.
 */
function withCondition(rule: FilterRule, condition: FilterCondition): FilterRule {
  if (condition.tagValueOperator === 'is_empty') {
    // "team is missing" once per rule.
    const has = rule.conditions.some((c) => c.field === 'tag' && c.tagKey === condition.tagKey && c.tagValueOperator === 'is_empty');
    return has ? rule : { ...rule, conditions: [...rule.conditions, condition] };
  }
  const same = rule.conditions.find((c) => {
    if (c.field !== condition.field) return false;
    if (c.field === 'tag') return c.tagKey === condition.tagKey && (c.tagValueOperator ?? 'equals') === 'equals';
    return c.operator === 'equals';
  });
  if (!same) return { ...rule, conditions: [...rule.conditions, condition] };
  // A tag key alone: the rule already asks for the key.
  if (condition.value.length === 0) return rule;
  // The key exists (no values) → the key equals the value.
  const values = same.field === 'tag' && same.value.length === 0 ? [] : same.value;
  if (values.includes(condition.value[0])) return rule;
  return { ...rule, conditions: rule.conditions.map((c) => (c === same ? { ...c, value: [...values, ...condition.value] } : c)) };
}

/**
 * The rules after choosing an entry (not a charge type, which goes to Include):
 * - a provider: a rule of that provider, unless one is there already;
 * - any other value: its condition joins every rule of a provider that has the value; when no
 *   rule has such a provider (no rules at all, say), one new rule per provider that has it.
 */
export function addEntryToRules(rules: FilterRule[], entry: SearchEntry): FilterRule[] {
  if (entry.dimension === 'charge_type') return rules;
  if (entry.dimension === 'provider') {
    const code = providerCode(entry.value);
    if (rules.some((r) => r.provider === code)) return rules;
    return [...rules, { id: newFilterId('rule'), provider: code, conditions: [] }];
  }
  const scoped = entry as SearchEntry & { dimension: ConditionDimension };
  const has = (rule: FilterRule) => rule.provider !== '' && entry.providers.includes(rule.provider);
  if (rules.some(has)) return rules.map((rule) => (has(rule) ? withCondition(rule, conditionFor(scoped)) : rule));
  return [...rules, ...entry.providers.map((provider) => ({ id: newFilterId('rule'), provider, conditions: [conditionFor(scoped)] }))];
}
