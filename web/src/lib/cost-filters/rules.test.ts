import { cleanValues, coerceOperator, coerceTagOperator, describeFilters, flatFiltersToRules, rulesToFlatFilters, splitTypedValues, validateRulesForApply } from './rules';
import type { FilterRule, FlatFilter } from './types';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const CREATED = NOW.toISOString();

function flat(partial: Partial<FlatFilter> & Pick<FlatFilter, 'id' | 'field'>): FlatFilter {
  return { operator: 'equals', value: [], logic: 'and', level: 1, created: CREATED, ...partial };
}

const awsRule: FilterRule = {
  id: 'r1',
  provider: 'aws',
  conditions: [
    { id: 'c1', field: 'service', operator: 'equals', value: ['AmazonEC2', 'AmazonS3'] },
    { id: 'c2', field: 'region', operator: 'not_equals', value: ['us-east-1'] },
  ],
};
const gcpRule: FilterRule = {
  id: 'r2',
  provider: 'gcp',
  conditions: [
    { id: 'c3', field: 'account', operator: 'equals', value: ['my-project'] },
    { id: 'c4', field: 'tag', operator: 'equals', value: ['prod'], tagKey: 'env', tagValueOperator: 'not_equals' },
  ],
};

describe('rulesToFlatFilters', () => {
  it('writes the first rule provider with logic "and", later ones "or", conditions "and"', () => {
    const filters = rulesToFlatFilters([awsRule, gcpRule], NOW);
    expect(filters).toEqual([
      { id: 'r1', field: 'cloud_provider', operator: 'equals', value: ['aws'], logic: 'and', level: 0, created: CREATED },
      { id: 'c1', field: 'service_name', operator: 'equals', value: ['AmazonEC2', 'AmazonS3'], logic: 'and', level: 1, created: CREATED },
      { id: 'c2', field: 'region', operator: 'not_equals', value: ['us-east-1'], logic: 'and', level: 1, created: CREATED },
      { id: 'r2', field: 'cloud_provider', operator: 'equals', value: ['gcp'], logic: 'or', level: 0, created: CREATED },
      { id: 'c3', field: 'account_id', operator: 'equals', value: ['my-project'], logic: 'and', level: 1, created: CREATED },
      {
        id: 'c4', field: 'tags', operator: 'equals', value: ['prod'], logic: 'and', level: 1, created: CREATED,
        tagKey: 'env', tagValueOperator: 'not_equals',
      },
    ]);
  });

  it('drops rules without a provider, and the next rule becomes the first ("and")', () => {
    const filters = rulesToFlatFilters([{ id: 'x', provider: '', conditions: awsRule.conditions }, gcpRule], NOW);
    expect(filters.map((f) => [f.id, f.logic])).toEqual([
      ['r2', 'and'],
      ['c3', 'and'],
      ['c4', 'and'],
    ]);
  });

  it('drops conditions without a field or without values, and tag conditions without a key', () => {
    const rule: FilterRule = {
      id: 'r',
      provider: 'azure',
      conditions: [
        { id: 'no-field', field: '', operator: 'equals', value: ['x'] },
        { id: 'no-value', field: 'service', operator: 'equals', value: [] },
        { id: 'blank-value', field: 'region', operator: 'equals', value: ['  '] },
        { id: 'no-key', field: 'tag', operator: 'equals', value: ['x'], tagKey: '', tagValueOperator: 'equals' },
        { id: 'kept', field: 'service', operator: 'equals', value: ['Storage'] },
      ],
    };
    expect(rulesToFlatFilters([rule], NOW).map((f) => f.id)).toEqual(['r', 'kept']);
  });

  it('keeps a tag condition without values: the key must exist', () => {
    const rule: FilterRule = { id: 'r', provider: 'aws', conditions: [{ id: 't', field: 'tag', operator: 'equals', value: [], tagKey: ' team ' }] };
    expect(rulesToFlatFilters([rule], NOW)[1]).toMatchObject({ field: 'tags', tagKey: 'team', value: [], tagValueOperator: 'equals' });
  });

  it('coerces operators other than equals / not_equals to equals', () => {
    const rule = {
      id: 'r',
      provider: 'aws',
      conditions: [{ id: 'c', field: 'service', operator: 'contains', value: ['EC2'] }],
    } as unknown as FilterRule;
    expect(rulesToFlatFilters([rule], NOW)[1].operator).toBe('equals');
  });

  it('trims values and drops empties and repeats', () => {
    const rule: FilterRule = { id: 'r', provider: 'aws', conditions: [{ id: 'c', field: 'region', operator: 'equals', value: [' us-east-1 ', '', 'us-east-1', 'eu-west-1'] }] };
    expect(rulesToFlatFilters([rule], NOW)[1].value).toEqual(['us-east-1', 'eu-west-1']);
  });

  it('gives nothing for no rules', () => {
    expect(rulesToFlatFilters([], NOW)).toEqual([]);
  });
});

describe('flatFiltersToRules', () => {
  it('reads back what rulesToFlatFilters wrote (round trip)', () => {
    expect(flatFiltersToRules(rulesToFlatFilters([awsRule, gcpRule], NOW))).toEqual([awsRule, gcpRule]);
  });

  it('round trips flat filters written by the panel', () => {
    const filters = rulesToFlatFilters([gcpRule, awsRule], NOW);
    expect(rulesToFlatFilters(flatFiltersToRules(filters), NOW)).toEqual(filters);
  });

  it('opens a rule at a filter with logic "or" and at the first cloud_provider filter', () => {
    const rules = flatFiltersToRules([
      flat({ id: 'p1', field: 'cloud_provider', value: ['AWS'], level: 0 }),
      flat({ id: 's1', field: 'service_name', value: ['AmazonEC2'] }),
      flat({ id: 'p2', field: 'cloud_provider', value: ['gcp'], logic: 'or', level: 0 }),
      flat({ id: 'r2', field: 'region', value: ['us-central1'] }),
    ]);
    expect(rules).toHaveLength(2);
    expect(rules[0]).toMatchObject({ id: 'p1', provider: 'aws', conditions: [{ id: 's1', field: 'service', value: ['AmazonEC2'] }] });
    expect(rules[1]).toMatchObject({ id: 'p2', provider: 'gcp', conditions: [{ id: 'r2', field: 'region', value: ['us-central1'] }] });
  });

  it('puts "and" conditions before any provider into a rule without a provider', () => {
    const rules = flatFiltersToRules([
      flat({ id: 's', field: 'service_name', value: ['AmazonEC2'] }),
      flat({ id: 'p', field: 'cloud_provider', value: ['aws'], level: 0 }),
    ]);
    expect(rules).toHaveLength(2);
    expect(rules[0]).toMatchObject({ provider: '', conditions: [{ id: 's' }] });
    expect(rules[1]).toMatchObject({ id: 'p', provider: 'aws', conditions: [] });
    expect(validateRulesForApply(rules)).toBe('Please select a Cloud Provider for all rules.');
  });

  it('gives a second "and" provider filter a rule of its own instead of overwriting the first', () => {
    const rules = flatFiltersToRules([
      flat({ id: 'p1', field: 'cloud_provider', value: ['aws'], level: 0 }),
      flat({ id: 'p2', field: 'cloud_provider', value: ['gcp'], level: 0 }),
    ]);
    expect(rules.map((r) => [r.id, r.provider])).toEqual([
      ['p1', 'aws'],
      ['p2', 'gcp'],
    ]);
  });

  it('starts a new rule at an "or" condition', () => {
    const rules = flatFiltersToRules([
      flat({ id: 'p', field: 'cloud_provider', value: ['aws'], level: 0 }),
      flat({ id: 'a', field: 'service_name', value: ['A'] }),
      flat({ id: 'b', field: 'service_name', value: ['B'], logic: 'or' }),
    ]);
    expect(rules.map((r) => [r.provider, r.conditions.map((c) => c.id)])).toEqual([
      ['aws', ['a']],
      ['', ['b']],
    ]);
  });

  it('reads tag filters, "tag:{key}" fields and coerces other operators', () => {
    const rules = flatFiltersToRules([
      flat({ id: 'p', field: 'cloud_provider', value: ['azure'], level: 0 }),
      flat({ id: 't1', field: 'tags', tagKey: 'env', tagValueOperator: 'not_equals', value: ['dev'] }),
      flat({ id: 't2', field: 'tag:team', operator: 'not_equals', value: [] }),
      flat({ id: 'r', field: 'region', operator: 'starts_with', value: ['eu'] }),
    ]);
    expect(rules[0].conditions).toEqual([
      { id: 't1', field: 'tag', operator: 'equals', value: ['dev'], tagKey: 'env', tagValueOperator: 'not_equals' },
      { id: 't2', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'not_equals' },
      { id: 'r', field: 'region', operator: 'equals', value: ['eu'] },
    ]);
  });

  it('leaves out fields the editor cannot show', () => {
    const rules = flatFiltersToRules([
      flat({ id: 'p', field: 'cloud_provider', value: ['aws'], level: 0 }),
      flat({ id: 'c', field: 'cost_amount', operator: 'greater_than', value: ['10'] }),
    ]);
    expect(rules).toEqual([{ id: 'p', provider: 'aws', conditions: [] }]);
  });

  it('keeps any provider: a cloud by its code in any case, another by its name as written', () => {
    const rules = flatFiltersToRules([
      flat({ id: 'o', field: 'cloud_provider', value: [' Oracle '], level: 0 }),
      flat({ id: 'a', field: 'cloud_provider', value: ['AWS'], level: 0, logic: 'or' }),
      flat({ id: 'b', field: 'cloud_provider', value: [''], level: 0, logic: 'or' }),
    ]);
    expect(rules.map((rule) => rule.provider)).toEqual(['Oracle', 'aws', '']);
  });

  it('gives no rules for no filters', () => {
    expect(flatFiltersToRules([])).toEqual([]);
  });
});

describe('validateRulesForApply', () => {
  it('needs a provider on every rule', () => {
    expect(validateRulesForApply([awsRule, { id: 'x', provider: '', conditions: [] }])).toBe('Please select a Cloud Provider for all rules.');
  });

  it('needs a field and a value on every condition', () => {
    const noField: FilterRule = { id: 'r', provider: 'aws', conditions: [{ id: 'c', field: '', operator: 'equals', value: ['x'] }] };
    const noValue: FilterRule = { id: 'r', provider: 'aws', conditions: [{ id: 'c', field: 'service', operator: 'equals', value: [] }] };
    const noTagKey: FilterRule = { id: 'r', provider: 'aws', conditions: [{ id: 'c', field: 'tag', operator: 'equals', value: ['x'], tagKey: '' }] };
    for (const rule of [noField, noValue, noTagKey]) {
      expect(validateRulesForApply([rule])).toBe('Please complete all filter conditions.');
    }
  });

  it('accepts tag conditions without values, rules without conditions and no rules', () => {
    const tagOnly: FilterRule = { id: 'r', provider: 'gcp', conditions: [{ id: 'c', field: 'tag', operator: 'equals', value: [], tagKey: 'env' }] };
    expect(validateRulesForApply([tagOnly, { id: 'p', provider: 'aws', conditions: [] }])).toBeNull();
    expect(validateRulesForApply([])).toBeNull();
  });
});

describe('typed values and operators', () => {
  it('splits typed text at commas, trims and drops empties', () => {
    expect(splitTypedValues(' us-east-1, ,eu-west-1 ,, ')).toEqual(['us-east-1', 'eu-west-1']);
    expect(splitTypedValues('   ')).toEqual([]);
  });

  it('cleans value lists and single values', () => {
    expect(cleanValues(['a', ' a ', null, '', 'b'])).toEqual(['a', 'b']);
    expect(cleanValues('x')).toEqual(['x']);
    expect(cleanValues(undefined)).toEqual([]);
  });

  it('keeps not_equals and makes everything else equals', () => {
    expect(coerceOperator('not_equals')).toBe('not_equals');
    expect(coerceOperator('equals')).toBe('equals');
    expect(coerceOperator('in')).toBe('equals');
    expect(coerceOperator(undefined)).toBe('equals');
  });

  it('keeps is_empty / is_not_empty on a tag (no values), and coerces its other operators as above', () => {
    expect(coerceTagOperator('is_empty')).toBe('is_empty');
    expect(coerceTagOperator('is_not_empty')).toBe('is_not_empty');
    expect(coerceTagOperator('not_equals')).toBe('not_equals');
    expect(coerceTagOperator('contains')).toBe('equals');
    const rules = flatFiltersToRules([
      flat({ id: 'p', field: 'cloud_provider', value: ['aws'], level: 0 }),
      flat({ id: 't', field: 'tags', tagKey: 'team', tagValueOperator: 'is_empty', value: ['stale'] }),
      flat({ id: 'u', field: 'tag:env', operator: 'is_not_empty', value: [] }),
    ]);
    expect(rules[0].conditions).toEqual([
      { id: 't', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'is_empty' },
      { id: 'u', field: 'tag', operator: 'equals', value: [], tagKey: 'env', tagValueOperator: 'is_not_empty' },
    ]);
    expect(rulesToFlatFilters(rules, NOW).slice(1).map((f) => [f.field, f.tagKey, f.tagValueOperator, f.value])).toEqual([
      ['tags', 'team', 'is_empty', []],
      ['tags', 'env', 'is_not_empty', []],
    ]);
  });
});

describe('describeFilters', () => {
  it('reads each rule as its provider and its conditions ("Projects" on GCP)', () => {
    const tagKeyOnly: FilterRule = { id: 'r3', provider: 'azure', conditions: [{ id: 't', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'equals' }] };
    expect(describeFilters(rulesToFlatFilters([awsRule, gcpRule, tagKeyOnly], NOW))).toEqual([
      'AWS',
      'Service equals AmazonEC2, AmazonS3',
      'Region not equals us-east-1',
      'GCP',
      'Projects equals my-project',
      'Tag env not equals prod',
      'Azure',
      'Tag team',
    ]);
  });

  it('reads a missing tag as "{key} is missing" and a present one as "{key} is present"', () => {
    const rule: FilterRule = {
      id: 'r',
      provider: 'aws',
      conditions: [
        { id: 'm', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'is_empty' },
        { id: 'p', field: 'tag', operator: 'equals', value: [], tagKey: 'env', tagValueOperator: 'is_not_empty' },
      ],
    };
    expect(describeFilters(rulesToFlatFilters([rule], NOW))).toEqual(['AWS', 'team is missing', 'env is present']);
  });
});
