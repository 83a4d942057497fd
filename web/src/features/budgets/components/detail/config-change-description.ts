/**
 * A readable sentence for one configuration history item (spec 2 §2 "Configuration Change
 * History"): "Budget created", "Amount changed from $5,000 to $6,000", … The old and new values
 * are JSON values, and may also arrive as JSON text (spec 2 §3), so both are read.
 */
import { alertDescription } from '../../model/alerts';
import { FILTER_TYPE_LABEL } from '../../model/filters';
import { formatUsd } from '../../model/format';
import type { AlertThreshold, BudgetConfigHistoryItem, BudgetFilter } from '../../model/types';

const FIELD_LABEL: Record<string, string> = {
  name: 'Name',
  amount: 'Amount',
  period: 'Period',
  filters: 'Filters',
  alerts: 'Alerts',
};

const NONE = 'none';

/** A value given as JSON text becomes the value it encodes; plain text stays as it is. */
export function decodeJsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFilter(value: unknown): value is BudgetFilter {
  return isRecord(value) && typeof value.filterType === 'string' && Array.isArray(value.filterValues);
}

/** An alert as recorded; one recorded before forecasts has no `basis` and reads as Actual. */
function isAlert(value: unknown): value is AlertThreshold {
  return (
    isRecord(value) &&
    (value.thresholdType === 'Percentage' || value.thresholdType === 'Absolute') &&
    typeof value.thresholdValue === 'number' &&
    (value.basis === undefined || value.basis === null || value.basis === 'Actual' || value.basis === 'Forecasted')
  );
}

function filterTypeLabel(type: string): string {
  return (FILTER_TYPE_LABEL as Record<string, string>)[type] ?? type;
}

/** Any value the field-specific readers do not recognise, shown as compact text. */
function describeOther(value: unknown): string {
  if (value === null || value === undefined || value === '') return NONE;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function describeName(raw: unknown): string {
  // A name is text even when it looks like JSON ("2026" stays "2026"); only quoted JSON is unwrapped.
  const decoded = decodeJsonValue(raw);
  const name = typeof decoded === 'string' ? decoded : raw;
  return typeof name === 'string' && name !== '' ? `"${name}"` : describeOther(name);
}

function describeAmount(raw: unknown): string {
  const value = decodeJsonValue(raw);
  return typeof value === 'number' && Number.isFinite(value) ? formatUsd(value) : describeOther(value);
}

/** "Account: 123456789012, 210987654321; Region: us-east-1" */
function describeFilters(raw: unknown): string {
  const value = decodeJsonValue(raw);
  if (!Array.isArray(value) || !value.every(isFilter)) return describeOther(value);
  if (value.length === 0) return NONE;
  return value.map((f) => `${filterTypeLabel(f.filterType)}: ${f.filterValues.join(', ')}`).join('; ');
}

/** "75%, 100% (Forecasted), $4,500" */
function describeAlerts(raw: unknown): string {
  const value = decodeJsonValue(raw);
  if (!Array.isArray(value) || !value.every(isAlert)) return describeOther(value);
  if (value.length === 0) return NONE;
  return value.map(alertDescription).join(', ');
}

const DESCRIBE_VALUE: Record<string, (raw: unknown) => string> = {
  name: describeName,
  amount: describeAmount,
  filters: describeFilters,
  alerts: describeAlerts,
};

function describeValue(fieldName: string, raw: unknown): string {
  const describe = DESCRIBE_VALUE[fieldName] ?? ((value: unknown) => describeOther(decodeJsonValue(value)));
  return describe(raw);
}

export function describeConfigChange(
  item: Pick<BudgetConfigHistoryItem, 'changeType' | 'fieldName' | 'oldValue' | 'newValue'>,
): string {
  if (item.changeType === 'created') return 'Budget created';
  if (!item.fieldName) return 'Budget updated';
  const field = FIELD_LABEL[item.fieldName] ?? item.fieldName;
  return `${field} changed from ${describeValue(item.fieldName, item.oldValue)} to ${describeValue(item.fieldName, item.newValue)}`;
}

/** 'Created' / 'Updated' for the Type column. */
export function changeTypeLabel(changeType: string): string {
  return changeType ? changeType.charAt(0).toUpperCase() + changeType.slice(1) : '';
}
