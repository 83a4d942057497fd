/**
 * The cost filter builder's catalogue (spec 2 §5): its fields, the operators each type offers,
 * their labels in words, and how an added filter reads on a chip.
 */
import { providerLabel, type FlatFilter } from '@/lib/cost-filters';
import type { QueryFieldDef, QueryFieldName, QueryFieldType } from '../types';

export const QUERY_FIELDS: ReadonlyArray<QueryFieldDef> = [
  { value: 'cloud_provider', label: 'Cloud Provider', type: 'select' },
  { value: 'service_name', label: 'Service', type: 'select' },
  { value: 'region', label: 'Region', type: 'select' },
  { value: 'account_id', label: 'Account', type: 'select' },
  { value: 'cost_amount', label: 'Cost Amount', type: 'number' },
  { value: 'tags', label: 'Tag', type: 'tag' },
];

const TEXT_OPERATORS = ['equals', 'not_equals', 'in', 'not_in', 'contains', 'not_contains', 'starts_with', 'ends_with'] as const;
const NUMBER_OPERATORS = ['greater_than', 'less_than', 'between'] as const;

/** Operators that take a list of values (between: from and to). */
export const MULTI_VALUE_OPERATORS: ReadonlyArray<string> = ['in', 'not_in', 'between'];

export function queryField(name: string): QueryFieldDef | undefined {
  return QUERY_FIELDS.find((field) => field.value === name);
}

export function fieldLabel(name: string): string {
  return queryField(name)?.label ?? name;
}

/** The operators a field offers: amounts compare, everything else matches text. */
export function operatorsFor(type: QueryFieldType | undefined): ReadonlyArray<string> {
  if (type === undefined) return [];
  return type === 'number' ? NUMBER_OPERATORS : TEXT_OPERATORS;
}

export function operatorsForField(name: QueryFieldName | ''): ReadonlyArray<string> {
  return operatorsFor(name ? queryField(name)?.type : undefined);
}

/** "not_equals" → "not equals", "starts_with" → "starts with". */
export function operatorLabel(operator: string): string {
  return operator.replace(/_/g, ' ');
}

export function isMultiValue(operator: string): boolean {
  return MULTI_VALUE_OPERATORS.includes(operator);
}

/** A value as a person reads it: providers by their usual name, accounts with their name. */
function valueText(filter: Pick<FlatFilter, 'field'>, value: string, accountNames: Record<string, string>): string {
  if (filter.field === 'cloud_provider') return providerLabel(value);
  if (filter.field === 'account_id' && accountNames[value]) return `${accountNames[value]} (${value})`;
  return value;
}

/**
 * An added filter in words: "Service contains EC2", "Region in eu-west-1, us-east-1",
 * "Tag team equals web", "Cost Amount between 10 and 250". Amounts are written as typed: they are
 * compared in the currency of the answer, which is known only once the query has run.
 */
export function describeQueryFilter(filter: FlatFilter, accountNames: Record<string, string> = {}): string {
  const subject = filter.field === 'tags' ? `Tag ${filter.tagKey ?? ''}`.trim() : fieldLabel(filter.field);
  const values = filter.value.map((v) => valueText(filter, v, accountNames));
  const joined = filter.operator === 'between' ? values.join(' and ') : values.join(', ');
  return `${subject} ${operatorLabel(filter.operator)} ${joined}`.trim();
}
