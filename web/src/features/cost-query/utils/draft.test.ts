import {
  DRAFT_MESSAGES,
  EMPTY_DRAFT,
  MESSAGE_SEPARATOR,
  chooseField,
  chooseOperator,
  draftToFilter,
  setDraftTagKey,
  setDraftValue,
  validateDraft,
} from './draft';
import { describeQueryFilter, isMultiValue, operatorsForField } from './query-fields';

const NOW = new Date('2026-11-26T12:00:00.000Z');

describe('the builder row (spec 2 §5)', () => {
  it('choosing a field resets operator and value; choosing an operator resets the value', () => {
    const filled = { field: 'tags' as const, operator: 'in', value: ['web'], tagKey: 'team' };
    expect(chooseField(filled, 'region')).toEqual({ field: 'region', operator: '', value: [], tagKey: '' });
    expect(chooseOperator(filled, 'equals')).toEqual({ field: 'tags', operator: 'equals', value: [], tagKey: 'team' });
    expect(setDraftTagKey(setDraftValue(EMPTY_DRAFT, ['a']), 'env')).toEqual({ field: '', operator: '', value: ['a'], tagKey: 'env' });
  });

  it('offers the text operators for select fields and tags, greater/less/between for amounts', () => {
    const text = ['equals', 'not_equals', 'in', 'not_in', 'contains', 'not_contains', 'starts_with', 'ends_with'];
    for (const field of ['cloud_provider', 'service_name', 'region', 'account_id', 'tags'] as const) expect(operatorsForField(field)).toEqual(text);
    expect(operatorsForField('cost_amount')).toEqual(['greater_than', 'less_than', 'between']);
    expect(operatorsForField('')).toEqual([]);
    expect(['in', 'not_in', 'between'].every(isMultiValue)).toBe(true);
    expect(isMultiValue('equals')).toBe(false);
  });

  it('names every missing part, joined', () => {
    expect(validateDraft(EMPTY_DRAFT)).toEqual([DRAFT_MESSAGES.field, DRAFT_MESSAGES.operator, DRAFT_MESSAGES.value]);
    expect(validateDraft(EMPTY_DRAFT).join(MESSAGE_SEPARATOR)).toBe('Please select a field · Please select an operator · Please enter a value');
    expect(validateDraft({ ...EMPTY_DRAFT, field: 'region' })).toEqual(['Please select an operator', 'Please enter a value']);
    expect(validateDraft({ ...EMPTY_DRAFT, field: 'region', operator: 'equals', value: ['  '] })).toEqual(['Please enter a value']);
    expect(validateDraft({ ...EMPTY_DRAFT, field: 'region', operator: 'equals', value: ['eu-west-1'] })).toEqual([]);
    expect(validateDraft({ ...EMPTY_DRAFT, field: 'tags', operator: 'equals', value: ['web'] })).toEqual(['Please select a tag key']);
    expect(validateDraft({ ...EMPTY_DRAFT, field: 'cost_amount', operator: 'between', value: ['10', ''] })).toEqual(['Please enter a value']);
    expect(validateDraft({ ...EMPTY_DRAFT, field: 'cost_amount', operator: 'between', value: ['10', '0'] })).toEqual([]);
  });

  it('turns a complete draft into a filter with trimmed values', () => {
    const filter = draftToFilter({ field: 'service_name', operator: 'contains', value: [' EC2 '], tagKey: '' }, 'or', NOW);
    expect(filter).toMatchObject({ field: 'service_name', operator: 'contains', value: ['EC2'], logic: 'or', level: 1, created: NOW.toISOString() });
    expect(filter).not.toHaveProperty('tagKey');
    expect(filter.id).toMatch(/^filter-/);
    expect(draftToFilter({ field: 'region', operator: 'in', value: ['a', ' a', '', 'b'], tagKey: '' }, 'and', NOW).value).toEqual(['a', 'b']);
    expect(draftToFilter({ field: 'cost_amount', operator: 'between', value: ['10', '250', '9'], tagKey: '' }, 'and', NOW).value).toEqual(['10', '250']);
    expect(draftToFilter({ field: 'tags', operator: 'equals', value: ['web'], tagKey: ' team ' }, 'and', NOW)).toMatchObject({ tagKey: 'team' });
    expect(() => draftToFilter(EMPTY_DRAFT, 'and', NOW)).toThrow();
  });

  it('describes added filters in words', () => {
    const f = (field: string, operator: string, value: string[], tagKey?: string) => ({ id: 'x', field, operator, value, logic: 'and' as const, level: 1 as const, tagKey, created: '' });
    expect(describeQueryFilter(f('service_name', 'not_contains', ['EC2']))).toBe('Service not contains EC2');
    expect(describeQueryFilter(f('cloud_provider', 'in', ['aws', 'gcp']))).toBe('Cloud Provider in AWS, GCP');
    expect(describeQueryFilter(f('account_id', 'equals', ['111']), { '111': 'Production' })).toBe('Account equals Production (111)');
    expect(describeQueryFilter(f('tags', 'starts_with', ['we'], 'team'))).toBe('Tag team starts with we');
    expect(describeQueryFilter(f('cost_amount', 'between', ['10', '250']))).toBe('Cost Amount between 10 and 250');
    expect(describeQueryFilter(f('cost_amount', 'greater_than', ['100']))).toBe('Cost Amount greater than 100');
  });
});
