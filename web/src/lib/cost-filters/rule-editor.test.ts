import { ruleEditorReducer } from './rule-editor';
import type { FilterRule } from './types';

function ruleWith(condition: FilterRule['conditions'][number], provider: FilterRule['provider'] = 'aws'): FilterRule[] {
  return [{ id: 'r', provider, conditions: [condition] }];
}

describe('ruleEditorReducer', () => {
  it('adds an empty rule and removes rules', () => {
    const added = ruleEditorReducer([], { type: 'addRule' });
    expect(added).toEqual([{ id: expect.any(String), provider: '', conditions: [] }]);
    expect(ruleEditorReducer(added, { type: 'removeRule', ruleId: added[0].id })).toEqual([]);
  });

  it('adds a condition only once the rule has a provider', () => {
    const rules: FilterRule[] = [{ id: 'r', provider: '', conditions: [] }];
    expect(ruleEditorReducer(rules, { type: 'addCondition', ruleId: 'r' })).toEqual(rules);
    const withProvider = ruleEditorReducer(rules, { type: 'setProvider', ruleId: 'r', provider: 'gcp' });
    const next = ruleEditorReducer(withProvider, { type: 'addCondition', ruleId: 'r' });
    expect(next[0].conditions).toEqual([{ id: expect.any(String), field: '', operator: 'equals', value: [] }]);
  });

  it('clears the value when the field changes', () => {
    const rules = ruleWith({ id: 'c', field: 'service', operator: 'not_equals', value: ['AmazonEC2'] });
    const next = ruleEditorReducer(rules, { type: 'setField', ruleId: 'r', conditionId: 'c', field: 'region' });
    expect(next[0].conditions[0]).toEqual({ id: 'c', field: 'region', operator: 'not_equals', value: [] });
  });

  it('resets the tag key and operator when moving to or from tag (tag operator equals)', () => {
    const rules = ruleWith({ id: 'c', field: 'service', operator: 'not_equals', value: ['AmazonEC2'] });
    const toTag = ruleEditorReducer(rules, { type: 'setField', ruleId: 'r', conditionId: 'c', field: 'tag' });
    expect(toTag[0].conditions[0]).toEqual({ id: 'c', field: 'tag', operator: 'equals', value: [], tagKey: '', tagValueOperator: 'equals' });
    const keyed = ruleEditorReducer(toTag, { type: 'setTagKey', ruleId: 'r', conditionId: 'c', tagKey: 'env' });
    const negated = ruleEditorReducer(keyed, { type: 'setOperator', ruleId: 'r', conditionId: 'c', operator: 'not_equals' });
    expect(negated[0].conditions[0]).toMatchObject({ tagKey: 'env', tagValueOperator: 'not_equals', operator: 'equals' });
    const fromTag = ruleEditorReducer(negated, { type: 'setField', ruleId: 'r', conditionId: 'c', field: 'account' });
    expect(fromTag[0].conditions[0]).toEqual({ id: 'c', field: 'account', operator: 'equals', value: [] });
  });

  it('clears the tag values when the tag key changes', () => {
    const rules = ruleWith({ id: 'c', field: 'tag', operator: 'equals', value: ['prod'], tagKey: 'env', tagValueOperator: 'equals' });
    const next = ruleEditorReducer(rules, { type: 'setTagKey', ruleId: 'r', conditionId: 'c', tagKey: 'team' });
    expect(next[0].conditions[0]).toMatchObject({ tagKey: 'team', value: [] });
  });

  it('sets values and operators, removes conditions, clears all and resets', () => {
    const rules = ruleWith({ id: 'c', field: 'region', operator: 'equals', value: [] });
    const valued = ruleEditorReducer(rules, { type: 'setValue', ruleId: 'r', conditionId: 'c', value: ['eu-west-1'] });
    const negated = ruleEditorReducer(valued, { type: 'setOperator', ruleId: 'r', conditionId: 'c', operator: 'not_equals' });
    expect(negated[0].conditions[0]).toEqual({ id: 'c', field: 'region', operator: 'not_equals', value: ['eu-west-1'] });
    expect(ruleEditorReducer(negated, { type: 'removeCondition', ruleId: 'r', conditionId: 'c' })[0].conditions).toEqual([]);
    expect(ruleEditorReducer(negated, { type: 'clearAll' })).toEqual([]);
    expect(ruleEditorReducer([], { type: 'reset', rules })).toBe(rules);
  });

  it('a tag takes "is missing" / "is present" and drops its values; other fields keep equals / not equals', () => {
    const rules = ruleWith({ id: 'c', field: 'tag', operator: 'equals', value: ['web'], tagKey: 'team', tagValueOperator: 'equals' });
    const missing = ruleEditorReducer(rules, { type: 'setOperator', ruleId: 'r', conditionId: 'c', operator: 'is_empty' });
    expect(missing[0].conditions[0]).toEqual({ id: 'c', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'is_empty' });
    const back = ruleEditorReducer(missing, { type: 'setOperator', ruleId: 'r', conditionId: 'c', operator: 'not_equals' });
    expect(back[0].conditions[0].tagValueOperator).toBe('not_equals');
    const service = ruleWith({ id: 'c', field: 'service', operator: 'equals', value: ['AmazonEC2'] });
    const next = ruleEditorReducer(service, { type: 'setOperator', ruleId: 'r', conditionId: 'c', operator: 'is_empty' });
    expect(next[0].conditions[0]).toEqual({ id: 'c', field: 'service', operator: 'equals', value: ['AmazonEC2'] });
  });
});
