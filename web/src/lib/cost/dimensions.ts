/** Group By (spec 1 §2.5, §4, §9 group keys) and row labels with the §3 field fallbacks. */
import type { CostRow } from './api';

export type GroupKey = 'none' | 'account' | 'region' | 'service' | 'cloud_provider' | 'cost_type' | 'usage_type';

export const GROUP_BY_OPTIONS: ReadonlyArray<{ value: GroupKey; label: string }> = [
  { value: 'none', label: 'Ungrouped' },
  { value: 'account', label: 'Account' },
  { value: 'region', label: 'Region' },
  { value: 'service', label: 'Service' },
  { value: 'cloud_provider', label: 'Cloud Provider' },
  { value: 'cost_type', label: 'Cost Type' },
  { value: 'usage_type', label: 'Usage Type' },
];

/** §9: at most 4 grouping dimensions. */
export const MAX_GROUP_BY = 4;

export function groupKeyLabel(key: GroupKey): string {
  return GROUP_BY_OPTIONS.find((option) => option.value === key)?.label ?? key;
}

/**
 * The toolbar's Group By rule (§4). Choosing Ungrouped together with others clears everything
 * (→ ['none']) when dimensions were already chosen; when Ungrouped was the previous choice the
 * newly chosen dimensions are kept. Duplicates are dropped and at most 4 are kept.
 */
export function applyGroupBySelection(previous: GroupKey[], next: GroupKey[]): GroupKey[] {
  const dimensions = [...new Set(next.filter((key) => key !== 'none'))];
  if (next.includes('none') && dimensions.length > 0) {
    const hadDimensions = previous.some((key) => key !== 'none');
    if (hadDimensions && !previous.includes('none')) return ['none'];
  }
  if (dimensions.length === 0) return ['none'];
  return dimensions.slice(0, MAX_GROUP_BY);
}

/** The dimensions to send as `group_by_dimensions` (Ungrouped → none). */
export function groupByDimensions(keys: GroupKey[]): Exclude<GroupKey, 'none'>[] {
  return keys.filter((key): key is Exclude<GroupKey, 'none'> => key !== 'none').slice(0, MAX_GROUP_BY);
}

/** §3 "Cost data item": the fields that may carry each dimension, first found wins. */
const FALLBACKS: Record<Exclude<GroupKey, 'none'>, string[]> = {
  service: ['service', 'service_name', 'service_id'],
  account: [
    'account_name',
    'account',
    'account_id',
    'linked_account_id',
    'billing_account_id',
    'aws_account_id',
    'gcp_project_id',
    'azure_subscription_id',
  ],
  region: ['region', 'region_name'],
  cloud_provider: ['cloud_provider', 'provider_name'],
  cost_type: ['cost_type'],
  usage_type: ['usage_type'],
};

/** The fallback label of a row that has no value for a dimension. */
export const UNKNOWN_DIMENSION = 'Unknown';
/** The label of the single group of an ungrouped answer. */
export const TOTAL_LABEL = 'Total';

/**
 * A row's label for one dimension, with the §3 fallbacks (accounts show their name when the API
 * has one). Ungrouped rows are "Total"; a row with none of the fields is "Unknown".
 */
export function rowDimension(row: Partial<CostRow> & Record<string, unknown>, key: GroupKey): string {
  if (key === 'none') return TOTAL_LABEL;
  for (const field of FALLBACKS[key]) {
    const value = row[field];
    if (typeof value === 'string' && value.trim()) return value;
    if (typeof value === 'number') return String(value);
  }
  return UNKNOWN_DIMENSION;
}
