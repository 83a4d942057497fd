export type { ApiCondition, ApiFilterGroup, ApiTagCondition } from '@/lib/cost';

/** Spec 1 §3 filter field catalogue, plus `tag:{key}` (a field naming a tag key, §5). */
export type FilterField =
  | 'cloud_provider'
  | 'date_range'
  | 'cost_amount'
  | 'service_name'
  | 'region'
  | 'account_id'
  | 'tags'
  | `tag:${string}`;

export type FilterLogic = 'and' | 'or';
export type ValueOperator = 'equals' | 'not_equals';
/**
 * A tag's value operator: equals / not equals its values, or without values `is_empty` (the key
 * is missing or its value empty: "untagged for {key}") and `is_not_empty` (the key has a value).
 */
export type TagValueOperator = ValueOperator | 'is_empty' | 'is_not_empty';

/** Spec 1 §3 "Flat applied filter (panel)": level 0 is a rule's provider, level 1 a condition. */
export interface FlatFilter {
  id: string;
  field: string;
  operator: string;
  value: string[];
  logic: FilterLogic;
  level: 0 | 1;
  tagKey?: string;
  tagValueOperator?: TagValueOperator;
  metadata?: Record<string, unknown>;
  created: string;
}

/**
 * A provider as the API stores it: `aws`, `gcp` or `azure` for the three clouds, any other
 * provider by its name as given (`Oracle`, `Datadog` …).
 */
export type Provider = string;

/** Spec 1 §3 "Condition" of the rule editor. */
export interface FilterCondition {
  id: string;
  field: 'service' | 'region' | 'account' | 'usage_type' | 'tag' | '';
  operator: ValueOperator;
  value: string[];
  tagKey?: string;
  tagValueOperator?: TagValueOperator;
}

/** Spec 1 §3 "Filter rule (editor)". */
export interface FilterRule {
  id: string;
  provider: Provider | '';
  conditions: FilterCondition[];
}

export type ConditionField = Exclude<FilterCondition['field'], ''>;
