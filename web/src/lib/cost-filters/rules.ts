import { APPLY_MESSAGES, conditionFieldLabel, describeTagPresence, isValuelessTagOperator, providerCode, providerLabel } from './constants';
import { newFilterId } from './ids';
import type { ConditionField, FilterCondition, FilterRule, FlatFilter, Provider, TagValueOperator, ValueOperator } from './types';

const CONDITION_TO_FLAT_FIELD: Record<ConditionField, string> = {
  service: 'service_name',
  region: 'region',
  account: 'account_id',
  usage_type: 'usage_type',
  tag: 'tags',
};

const FLAT_TO_CONDITION_FIELD: Record<string, ConditionField> = {
  service_name: 'service',
  region: 'region',
  account_id: 'account',
  usage_type: 'usage_type',
  tags: 'tag',
};

/** Operators other than equals / not_equals become equals (spec 1 §5). */
export function coerceOperator(operator: unknown): ValueOperator {
  return operator === 'not_equals' ? 'not_equals' : 'equals';
}

/** A tag's operator: also is_empty / is_not_empty (they take no values); others become equals. */
export function coerceTagOperator(operator: unknown): TagValueOperator {
  return isValuelessTagOperator(operator) ? operator : coerceOperator(operator);
}

/** Typed values: comma-separated, trimmed, empties dropped (spec 1 §5). */
export function splitTypedValues(text: string): string[] {
  return text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Trimmed, non-empty, distinct values in their order. */
export function cleanValues(values: unknown): string[] {
  const list = Array.isArray(values) ? values : values === undefined || values === null ? [] : [values];
  const out: string[] = [];
  for (const v of list) {
    if (v === undefined || v === null) continue;
    const s = String(v).trim();
    if (s !== '' && !out.includes(s)) out.push(s);
  }
  return out;
}

function toProvider(value: unknown): Provider | '' {
  return providerCode(cleanValues(value)[0] ?? '');
}

function conditionFromFlat(filter: FlatFilter): FilterCondition | null {
  const field = typeof filter.field === 'string' ? filter.field : '';
  const tagKeyFromField = field.startsWith('tag:') ? field.slice(4) : undefined;
  const conditionField = tagKeyFromField !== undefined ? 'tag' : FLAT_TO_CONDITION_FIELD[field];
  if (!conditionField) return null;
  const condition: FilterCondition = {
    id: filter.id || newFilterId('condition'),
    field: conditionField,
    operator: coerceOperator(filter.operator),
    value: cleanValues(filter.value),
  };
  if (conditionField === 'tag') {
    condition.operator = 'equals';
    condition.tagKey = tagKeyFromField ?? filter.tagKey ?? '';
    condition.tagValueOperator = coerceTagOperator(filter.tagValueOperator ?? filter.operator);
    if (isValuelessTagOperator(condition.tagValueOperator)) condition.value = [];
  }
  return condition;
}

/**
 * The flat list as editor rules (spec 1 §4): a filter with logic "or", or the first filter
 * whose field starts with cloud_provider, opens a rule; "and" filters join the current rule.
 */
export function flatFiltersToRules(filters: FlatFilter[]): FilterRule[] {
  const rules: FilterRule[] = [];
  let current: FilterRule | null = null;
  let seenProvider = false;
  for (const filter of filters) {
    const isProvider = typeof filter.field === 'string' && filter.field.startsWith('cloud_provider');
    const opens = filter.logic === 'or' || (isProvider && !seenProvider) || current === null;
    if (isProvider) seenProvider = true;
    if (opens || (isProvider && current?.provider)) {
      current = { id: isProvider ? filter.id || newFilterId('rule') : newFilterId('rule'), provider: '', conditions: [] };
      rules.push(current);
    }
    const rule: FilterRule = current!;
    if (isProvider) {
      rule.provider = toProvider(filter.value);
      continue;
    }
    const condition = conditionFromFlat(filter);
    if (condition) rule.conditions.push(condition);
  }
  return rules;
}

/** A condition the panel can send: a field, and values (a tag needs a key; its values are optional). */
export function isConditionComplete(condition: FilterCondition): boolean {
  if (!condition.field) return false;
  if (condition.field === 'tag') return Boolean(condition.tagKey?.trim());
  return cleanValues(condition.value).length > 0;
}

/** The alert text of the panel's Apply, or null when the rules can be applied (spec 1 §5). */
export function validateRulesForApply(rules: FilterRule[]): string | null {
  if (rules.some((r) => !r.provider)) return APPLY_MESSAGES.providerMissing;
  if (rules.some((r) => r.conditions.some((c) => !isConditionComplete(c)))) return APPLY_MESSAGES.conditionIncomplete;
  return null;
}

/**
 * The rules as flat filters (spec 1 §4): the first rule's provider filter has logic "and",
 * later ones "or"; conditions "and". Rules without a provider and incomplete conditions are
 * dropped; operators other than equals / not_equals become equals (§5).
 */
export function rulesToFlatFilters(rules: FilterRule[], now: Date = new Date()): FlatFilter[] {
  const created = now.toISOString();
  const out: FlatFilter[] = [];
  for (const rule of rules.filter((r) => r.provider)) {
    out.push({
      id: rule.id,
      field: 'cloud_provider',
      operator: 'equals',
      value: [rule.provider],
      logic: out.length === 0 ? 'and' : 'or',
      level: 0,
      created,
    });
    for (const condition of rule.conditions) {
      if (!isConditionComplete(condition) || !condition.field) continue;
      const filter: FlatFilter = {
        id: condition.id,
        field: CONDITION_TO_FLAT_FIELD[condition.field],
        operator: coerceOperator(condition.operator),
        value: cleanValues(condition.value),
        logic: 'and',
        level: 1,
        created,
      };
      if (condition.field === 'tag') {
        filter.tagKey = condition.tagKey!.trim();
        filter.tagValueOperator = coerceTagOperator(condition.tagValueOperator);
        if (isValuelessTagOperator(filter.tagValueOperator)) filter.value = [];
      }
      out.push(filter);
    }
  }
  return out;
}

/**
 * Like `rulesToFlatFilters`, but a rule without a provider keeps its complete conditions as a
 * rule for any provider: its conditions alone, the first one opening the rule ("or" after
 * another rule). A drill-down adds such a rule (docs/ANALYST-FLOW.md "Drill-down"); the filter
 * panel asks for a provider before it applies one.
 */
export function rulesToFlatFiltersAnyProvider(rules: FilterRule[], now: Date = new Date()): FlatFilter[] {
  const out: FlatFilter[] = [];
  for (const rule of rules) {
    const anyProvider = !rule.provider;
    // A placeholder provider gives the conditions their flat form; it is not kept.
    const flat = rulesToFlatFilters([{ ...rule, provider: rule.provider || '*' }], now);
    const kept = anyProvider ? flat.slice(1) : flat;
    kept.forEach((filter, i) => {
      if (i === 0) filter.logic = out.length === 0 ? 'and' : 'or';
      out.push(filter);
    });
  }
  return out;
}

/**
 * A person's reading of one condition: "Service equals AmazonEC2", "Tag env" (the key exists),
 * "team is missing" (untagged for team), "team is present".
 */
export function describeCondition(condition: FilterCondition, provider: Provider | ''): string {
  if (!condition.field) return '';
  if (condition.field === 'tag' && isValuelessTagOperator(condition.tagValueOperator)) {
    return describeTagPresence(condition.tagKey ?? '', condition.tagValueOperator);
  }
  const field = conditionFieldLabel(condition.field, provider);
  const values = cleanValues(condition.value);
  const operator = condition.field === 'tag' ? (condition.tagValueOperator ?? 'equals') : condition.operator;
  const subject = condition.field === 'tag' ? `${field} ${condition.tagKey ?? ''}` : field;
  if (values.length === 0) return subject;
  return `${subject} ${operator === 'not_equals' ? 'not equals' : 'equals'} ${values.join(', ')}`;
}

/** The applied filters as short labels: each rule's provider, then its conditions. */
export function describeFilters(filters: FlatFilter[]): string[] {
  return flatFiltersToRules(filters).flatMap((rule) => [
    ...(rule.provider ? [providerLabel(rule.provider)] : []),
    ...rule.conditions.map((c) => describeCondition(c, rule.provider)).filter((label) => label !== ''),
  ]);
}
