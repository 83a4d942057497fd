import { newFilterId } from './ids';
import { isValuelessTagOperator } from './constants';
import { coerceOperator } from './rules';
import type { FilterCondition, FilterRule, Provider, TagValueOperator } from './types';

/** The panel's edits of its pending rules (spec 1 §4 "Filter panel editor"). */
export type RuleEditorAction =
  | { type: 'reset'; rules: FilterRule[] }
  | { type: 'addRule' }
  | { type: 'removeRule'; ruleId: string }
  | { type: 'setProvider'; ruleId: string; provider: Provider | '' }
  | { type: 'addCondition'; ruleId: string }
  | { type: 'removeCondition'; ruleId: string; conditionId: string }
  | { type: 'setField'; ruleId: string; conditionId: string; field: FilterCondition['field'] }
  | { type: 'setOperator'; ruleId: string; conditionId: string; operator: TagValueOperator }
  | { type: 'setValue'; ruleId: string; conditionId: string; value: string[] }
  | { type: 'setTagKey'; ruleId: string; conditionId: string; tagKey: string }
  | { type: 'clearAll' };

export function emptyRule(): FilterRule {
  return { id: newFilterId('rule'), provider: '', conditions: [] };
}

export function emptyCondition(): FilterCondition {
  return { id: newFilterId('condition'), field: '', operator: 'equals', value: [] };
}

function mapRule(rules: FilterRule[], ruleId: string, change: (rule: FilterRule) => FilterRule): FilterRule[] {
  return rules.map((r) => (r.id === ruleId ? change(r) : r));
}

function mapCondition(rules: FilterRule[], ruleId: string, conditionId: string, change: (c: FilterCondition) => FilterCondition): FilterRule[] {
  return mapRule(rules, ruleId, (r) => ({ ...r, conditions: r.conditions.map((c) => (c.id === conditionId ? change(c) : c)) }));
}

/** Changing a field clears the value; moving to or from tag resets the key and operator (tag operator equals). */
function withField(condition: FilterCondition, field: FilterCondition['field']): FilterCondition {
  if (field === condition.field) return condition;
  const tagMove = field === 'tag' || condition.field === 'tag';
  const next: FilterCondition = { id: condition.id, field, operator: tagMove ? 'equals' : condition.operator, value: [] };
  if (field === 'tag') {
    next.tagKey = '';
    next.tagValueOperator = 'equals';
  }
  return next;
}

export function ruleEditorReducer(rules: FilterRule[], action: RuleEditorAction): FilterRule[] {
  switch (action.type) {
    case 'reset':
      return action.rules;
    case 'addRule':
      return [...rules, emptyRule()];
    case 'removeRule':
      return rules.filter((r) => r.id !== action.ruleId);
    case 'setProvider':
      return mapRule(rules, action.ruleId, (r) => ({ ...r, provider: action.provider }));
    case 'addCondition':
      // A condition needs the rule's provider first (the panel says so, spec 1 §5).
      return mapRule(rules, action.ruleId, (r) => (r.provider ? { ...r, conditions: [...r.conditions, emptyCondition()] } : r));
    case 'removeCondition':
      return mapRule(rules, action.ruleId, (r) => ({ ...r, conditions: r.conditions.filter((c) => c.id !== action.conditionId) }));
    case 'setField':
      return mapCondition(rules, action.ruleId, action.conditionId, (c) => withField(c, action.field));
    case 'setOperator':
      // A tag's "is missing" / "is present" take no values; other fields know equals / not equals only.
      return mapCondition(rules, action.ruleId, action.conditionId, (c) =>
        c.field === 'tag'
          ? { ...c, tagValueOperator: action.operator, ...(isValuelessTagOperator(action.operator) ? { value: [] } : {}) }
          : { ...c, operator: coerceOperator(action.operator) },
      );
    case 'setValue':
      return mapCondition(rules, action.ruleId, action.conditionId, (c) => ({ ...c, value: action.value }));
    case 'setTagKey':
      return mapCondition(rules, action.ruleId, action.conditionId, (c) => ({ ...c, tagKey: action.tagKey, value: [] }));
    case 'clearAll':
      return [];
  }
}
