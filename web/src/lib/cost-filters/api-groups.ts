import { isValuelessTagOperator } from './constants';
import { cleanValues } from './rules';
import type { ApiCondition, ApiFilterGroup, ApiTagCondition, FlatFilter } from './types';

type ListKey = 'accounts' | 'regions' | 'services' | 'cloud_providers' | 'cost_types' | 'usage_types';

const FIELD_TO_GROUP_KEY: Record<string, ListKey> = {
  account_id: 'accounts',
  region: 'regions',
  service_name: 'services',
  cloud_provider: 'cloud_providers',
  cost_type: 'cost_types',
  usage_type: 'usage_types',
};

function hasConditions(group: ApiFilterGroup): boolean {
  return Object.entries(group).some(([key, value]) => key !== 'operator' && Array.isArray(value) && value.length > 0);
}

/**
 * A tag condition: `{key}` alone (the key exists), `{key, value: {operator, values}}`, or for
 * "is missing" / "is present" `{key, value: {operator: 'is_empty' | 'is_not_empty'}}` (no values).
 */
function tagCondition(key: string, filter: FlatFilter, values: string[]): ApiTagCondition {
  if (isValuelessTagOperator(filter.tagValueOperator)) return { key, value: { operator: filter.tagValueOperator } };
  if (values.length === 0) return { key };
  const operator = filter.tagValueOperator ?? (filter.operator === 'not_equals' ? 'not_equals' : 'equals');
  return { key, value: { operator, values } };
}

/**
 * Flat filters as the cost API's filter groups (spec 1 §3, §5). A filter with logic "or" opens
 * a group; the first group's operator is AND, the others' OR. Skipped: an empty field, an empty
 * or non-string operator, an empty value (except tags), a tag filter without a key. Unknown
 * fields are ignored with a warning; a field "tag:{key}" is a tag key.
 */
export function buildApiFilterGroups(filters: FlatFilter[]): { groups: ApiFilterGroup[]; warnings: string[] } {
  const warnings: string[] = [];
  const groups: ApiFilterGroup[] = [];
  let current: ApiFilterGroup | null = null;
  filters.forEach((filter, index) => {
    if (current === null || filter.logic === 'or') {
      current = {};
      groups.push(current);
    }
    const group: ApiFilterGroup = current;
    const field = typeof filter.field === 'string' ? filter.field.trim() : '';
    if (!field) return;
    if (typeof filter.operator !== 'string' || filter.operator.trim() === '') return;
    const operator = filter.operator.trim();
    const values = cleanValues(filter.value);
    if (field === 'tags' || field.startsWith('tag:')) {
      const key = (field.startsWith('tag:') ? field.slice(4) : (filter.tagKey ?? '')).trim();
      if (!key) return;
      group.tags = [...(group.tags ?? []), tagCondition(key, filter, values)];
      return;
    }
    const listKey = FIELD_TO_GROUP_KEY[field];
    if (!listKey) {
      warnings.push(`Filter ${index + 1}: ignored unknown field ${field}`);
      return;
    }
    if (values.length === 0) return;
    const condition: ApiCondition = { operator, values };
    group[listKey] = [...(group[listKey] ?? []), condition];
  });
  const kept = groups.filter(hasConditions);
  kept.forEach((group, i) => {
    group.operator = i === 0 ? 'AND' : 'OR';
  });
  // Put the operator first, as the API documents it.
  return { groups: kept.map(({ operator, ...rest }) => ({ operator, ...rest })), warnings };
}
