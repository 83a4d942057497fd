/**
 * The builder row's rules (spec 2 §5 "Cost filter builder"): choosing a field resets operator
 * and value, choosing an operator resets the value; Add Filter names what is missing.
 */
import { newFilterId, type FilterLogic, type FlatFilter } from '@/lib/cost-filters';
import type { QueryDraft, QueryFieldName } from '../types';
import { queryField } from './query-fields';

export const EMPTY_DRAFT: QueryDraft = { field: '', operator: '', value: [], tagKey: '' };

/** Spec 2 §5 messages of Add Filter. */
export const DRAFT_MESSAGES = {
  field: 'Please select a field',
  operator: 'Please select an operator',
  value: 'Please enter a value',
  /** Not in the spec: a tag filter names its key before its values. */
  tagKey: 'Please select a tag key',
  failed: 'Failed to add filter',
} as const;

/** Several messages of one Add Filter, joined as the other screens join warnings. */
export const MESSAGE_SEPARATOR = ' · ';

export function chooseField(_draft: QueryDraft, field: QueryFieldName | ''): QueryDraft {
  return { ...EMPTY_DRAFT, field };
}

export function chooseOperator(draft: QueryDraft, operator: string): QueryDraft {
  return { ...draft, operator, value: [] };
}

export function setDraftValue(draft: QueryDraft, value: string[]): QueryDraft {
  return { ...draft, value };
}

export function setDraftTagKey(draft: QueryDraft, tagKey: string): QueryDraft {
  return { ...draft, tagKey };
}

const filled = (value: string | undefined) => value !== undefined && value.trim() !== '';

/** Every problem of the draft, in the order of the row (none: it can be added). */
export function validateDraft(draft: QueryDraft): string[] {
  const messages: string[] = [];
  if (!draft.field) messages.push(DRAFT_MESSAGES.field);
  if (!draft.operator) messages.push(DRAFT_MESSAGES.operator);
  if (draft.field === 'tags' && !filled(draft.tagKey)) messages.push(DRAFT_MESSAGES.tagKey);
  const complete = draft.operator === 'between' ? filled(draft.value[0]) && filled(draft.value[1]) : draft.value.some(filled);
  if (!complete) messages.push(DRAFT_MESSAGES.value);
  return messages;
}

/**
 * The filter a complete draft adds. Values are trimmed; a single-value operator keeps one;
 * between keeps from and to in that order.
 */
export function draftToFilter(draft: QueryDraft, logic: FilterLogic, now: Date = new Date()): FlatFilter {
  if (!draft.field || !queryField(draft.field)) throw new Error(`Unknown field ${draft.field}`);
  const trimmed = draft.value.map((v) => v.trim());
  let value: string[];
  if (draft.operator === 'between') value = trimmed.slice(0, 2);
  else if (draft.operator === 'in' || draft.operator === 'not_in') value = [...new Set(trimmed.filter((v) => v !== ''))];
  else value = trimmed.filter((v) => v !== '').slice(0, 1);
  return {
    id: newFilterId(),
    field: draft.field,
    operator: draft.operator,
    value,
    logic,
    level: 1,
    ...(draft.field === 'tags' ? { tagKey: draft.tagKey.trim() } : {}),
    created: now.toISOString(),
  };
}
