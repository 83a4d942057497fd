import type { ModuleConfig } from './module-config';
import type { FlatFilter } from './types';

/** Spec 1 §3 filter operators. */
export const FILTER_OPERATORS = [
  'equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty',
  'greater_than', 'greater_than_or_equal', 'less_than', 'less_than_or_equal', 'between', 'not_between',
  'in', 'not_in', 'date_equals', 'date_after', 'date_before', 'date_between', 'date_relative', 'is_true', 'is_false',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const TEXT_OPERATORS: ReadonlyArray<FilterOperator> = [
  'equals', 'not_equals', 'in', 'not_in', 'contains', 'not_contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty',
];
const NUMBER_OPERATORS: ReadonlyArray<FilterOperator> = [
  'equals', 'not_equals', 'greater_than', 'greater_than_or_equal', 'less_than', 'less_than_or_equal', 'between', 'not_between',
];
const DATE_OPERATORS: ReadonlyArray<FilterOperator> = ['date_equals', 'date_after', 'date_before', 'date_between', 'date_relative'];
/** Operators that take no value. */
const VALUELESS_OPERATORS: ReadonlyArray<string> = ['is_empty', 'is_not_empty', 'is_true', 'is_false'];

/** The operators each catalogue field accepts (spec 1 §3; text fields as the API's /v1/query). */
export function operatorsForField(field: string): ReadonlyArray<FilterOperator> {
  if (field === 'date_range') return DATE_OPERATORS;
  if (field === 'cost_amount') return NUMBER_OPERATORS;
  if (field.startsWith('tag:')) return TEXT_OPERATORS;
  if (['cloud_provider', 'service_name', 'region', 'account_id', 'tags', 'cost_type', 'usage_type'].includes(field)) {
    return TEXT_OPERATORS;
  }
  return [];
}

/** A filter that carries nothing: an empty array, a blank string or an empty object (spec 1 §5). */
export function isEmptyFilter(filter: unknown): boolean {
  if (filter === null || filter === undefined) return true;
  if (Array.isArray(filter)) return filter.length === 0;
  if (typeof filter === 'string') return filter.trim() === '';
  if (typeof filter === 'object') return Object.keys(filter).length === 0;
  return false;
}

export function dropEmptyFilters<T>(filters: T[]): T[] {
  return filters.filter((f) => !isEmptyFilter(f));
}

function hasValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.some((v) => v !== undefined && v !== null && String(v).trim() !== '');
  return String(value).trim() !== '';
}

function isTagFilter(filter: Partial<FlatFilter>): boolean {
  return filter.field === 'tags' || (typeof filter.field === 'string' && filter.field.startsWith('tag:'));
}

/** The first problem of one filter, or null (spec 1 §5 generic filter messages). */
export function validateFilter(filter: Partial<FlatFilter>): string | null {
  if (!filter.id) return 'Filter ID is required';
  if (typeof filter.field !== 'string' || filter.field.trim() === '') return 'Filter field is required';
  if (typeof filter.operator !== 'string' || filter.operator.trim() === '') return 'Filter operator is required';
  const valueOptional = VALUELESS_OPERATORS.includes(filter.operator) || (isTagFilter(filter) && Boolean(filter.tagKey || filter.field.startsWith('tag:')));
  if (!valueOptional && !hasValue(filter.value)) return 'Filter value is required';
  if (!operatorsForField(filter.field).includes(filter.operator as FilterOperator)) {
    return `Operator ${filter.operator} is not supported for field ${filter.field}`;
  }
  return null;
}

function duplicateKey(filter: Partial<FlatFilter>): string {
  const tag = filter.field === 'tags' ? `:${filter.tagKey ?? ''}` : '';
  return `${filter.field}${tag}|${filter.operator}`;
}

/**
 * Every message for a list of filters: "Filters must be an array", "Filter {n}: …" per bad
 * filter, "Duplicate filters detected" (same field and operator) and the module's limit.
 */
export function validateFilterList(filters: unknown, config?: ModuleConfig): string[] {
  if (!Array.isArray(filters)) return ['Filters must be an array'];
  const errors: string[] = [];
  const list = filters as Array<Partial<FlatFilter>>;
  list.forEach((filter, i) => {
    const error = validateFilter(filter ?? {});
    if (error) errors.push(`Filter ${i + 1}: ${error}`);
  });
  const keys = list.map(duplicateKey);
  if (new Set(keys).size !== keys.length) errors.push('Duplicate filters detected');
  if (config && list.length > config.maxFilters) errors.push(`Maximum ${config.maxFilters} filters allowed`);
  return errors;
}
