/**
 * The budget wizard's pure rules (spec 2 §2 "Budget wizard", §4 "Wizard", §5 "Budget", §9):
 * the form it edits, its defaults, every validation message, the alert helpers and the request
 * it sends. The components only wire these to inputs.
 */
import { isApiError } from '@/api/api-error';
import { basisOf, DEFAULT_BASIS, isSameAlert } from './alerts';
import type { AlertBasis, AlertThreshold, Budget, BudgetFilterType, BudgetPeriod, BudgetRequest, ThresholdType } from './types';

export const WIZARD_STEPS = ['Select Filters', 'Budget Configuration'] as const;

/** The filter types in the order the wizard offers them. */
export const WIZARD_FILTER_TYPES: readonly BudgetFilterType[] = ['cloudProvider', 'account', 'region', 'service', 'tag'];
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['Monthly', 'Quarterly', 'Yearly'];
export const DEFAULT_PERIOD: BudgetPeriod = 'Monthly';

export const MAX_FILTERS = 5;
export const MAX_ALERTS = 5;
export const MIN_NAME_CHARS = 3;
/** Spec 2 §5 "at most 50", §9 "3 to 50 characters" (the message says "less than 50"), as the server. */
export const MAX_NAME_CHARS = 50;
export const MIN_PERCENTAGE = 1;
export const MAX_PERCENTAGE = 100;
export const SUGGESTED_THRESHOLDS: readonly number[] = [25, 50, 75, 90];
/** A new alert's value when every suggested threshold is taken. */
export const FALLBACK_THRESHOLD = 50;
export const DEFAULT_ALERT_PERCENTAGES: readonly number[] = [75, 100];

export const WIZARD_MESSAGES = {
  nameRequired: 'Budget name is required',
  nameTooShort: 'Budget name must be at least 3 characters',
  nameTooLong: 'Budget name must be less than 50 characters',
  amountNotPositive: 'Budget amount must be greater than $0',
  filtersMissing: 'At least one filter must be configured',
  filtersTooMany: 'Maximum of 5 filters allowed',
  filtersDuplicate: 'Duplicate filter types are not allowed',
  allFilterTypesUsed: 'All filter types are already in use',
  /** The spec gives the limit but no message; the server's, mirroring the filters' one. */
  alertsTooMany: 'Maximum of 5 alerts allowed',
  thresholdNotPositive: 'Threshold value must be greater than 0',
  percentageTooLow: 'Percentage must be at least 1%',
  percentageTooHigh: 'Percentage must be at most 100%',
  absoluteAboveAmount: 'Absolute threshold cannot exceed budget amount',
  loadFilterOptionsFailed: 'Failed to load filter options. Please try again later.',
  loadBudgetFailed: 'Failed to load budget data. Please try again.',
  budgetNotFound: 'No budget found.',
  saveFailed: 'Failed to save budget. Please try again.',
  fixErrors: 'Please fix the following errors:',
} as const;

/** 'A filter for Region already exists. Please use a different filter type.' */
export function filterTypeTakenMessage(typeLabel: string): string {
  return `A filter for ${typeLabel} already exists. Please use a different filter type.`;
}

// ---------------------------------------------------------------------------------------------
// The form

/** One filter row; `id` only keys the row on screen. */
export interface WizardFilter {
  id: string;
  filterType: BudgetFilterType;
  values: string[];
}

/** One alert row; the value is kept as typed so that live validation can judge the text. */
export interface WizardAlert {
  id: string;
  thresholdType: ThresholdType;
  value: string;
  /** Compared with the spend so far (Actual, the default) or the period's forecast total. */
  basis: AlertBasis;
}

export interface WizardForm {
  name: string;
  /** As typed, in dollars. */
  amount: string;
  period: BudgetPeriod;
  filters: WizardFilter[];
  alerts: WizardAlert[];
  /** The notification channels the alerts go to; none chosen: every channel (docs/NOTIFICATIONS.md). */
  channelIds: number[];
}

/** Makes the row ids; injected so that the rules stay pure and tests predictable. */
export type MakeId = () => string;

/** A new budget: Monthly, alerts at 75 and 100 percent, one filter row to fill in. */
export function newBudgetForm(makeId: MakeId): WizardForm {
  return {
    name: '',
    amount: '',
    period: DEFAULT_PERIOD,
    filters: [{ id: makeId(), filterType: WIZARD_FILTER_TYPES[0], values: [] }],
    alerts: DEFAULT_ALERT_PERCENTAGES.map((value) => ({
      id: makeId(),
      thresholdType: 'Percentage',
      value: String(value),
      basis: DEFAULT_BASIS,
    })),
    channelIds: [],
  };
}

/** The form of an existing budget, for the edit wizard. */
export function formFromBudget(budget: Budget, makeId: MakeId): WizardForm {
  return {
    name: budget.name ?? '',
    amount: String(budget.amount),
    period: BUDGET_PERIODS.includes(budget.period) ? budget.period : DEFAULT_PERIOD,
    filters: budget.filters.map((filter) => ({
      id: makeId(),
      filterType: filter.filterType,
      values: [...(filter.filterValues ?? [])],
    })),
    alerts: budget.alerts.map((alert) => ({
      id: makeId(),
      thresholdType: alert.thresholdType,
      value: String(alert.thresholdValue),
      basis: basisOf(alert),
    })),
    channelIds: [...budget.channelIds],
  };
}

// ---------------------------------------------------------------------------------------------
// Step 1: filters

/** The first filter type no row uses yet, if any. */
export function nextFilterType(filters: readonly WizardFilter[]): BudgetFilterType | undefined {
  return WIZARD_FILTER_TYPES.find((type) => !filters.some((filter) => filter.filterType === type));
}

/** Why another filter cannot be added, or null when it can. */
export function addFilterError(filters: readonly WizardFilter[]): string | null {
  if (nextFilterType(filters) === undefined) return WIZARD_MESSAGES.allFilterTypesUsed;
  if (filters.length >= MAX_FILTERS) return WIZARD_MESSAGES.filtersTooMany;
  return null;
}

/** The filters with one more row of the first unused type; unchanged when adding is blocked. */
export function addFilter(filters: readonly WizardFilter[], id: string): WizardFilter[] {
  const filterType = nextFilterType(filters);
  if (filterType === undefined || addFilterError(filters) !== null) return [...filters];
  return [...filters, { id, filterType, values: [] }];
}

/** Why row `id` cannot take `type` (another row has it), or null. */
export function changeFilterTypeError(
  filters: readonly WizardFilter[],
  id: string,
  type: BudgetFilterType,
  typeLabel: string,
): string | null {
  const taken = filters.some((filter) => filter.id !== id && filter.filterType === type);
  return taken ? filterTypeTakenMessage(typeLabel) : null;
}

/** Row `id` with a new type; its values belonged to the old type and are cleared. */
export function changeFilterType(filters: readonly WizardFilter[], id: string, type: BudgetFilterType): WizardFilter[] {
  return filters.map((filter) =>
    filter.id === id && filter.filterType !== type ? { ...filter, filterType: type, values: [] } : filter,
  );
}

/** Trimmed values without blanks and repeats, in their order. */
function cleanValues(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of values) {
    const value = raw.trim();
    if (value && !out.includes(value)) out.push(value);
  }
  return out;
}

/** The rows that constrain anything: a row without values is left out, as the server does. */
function configuredFilters(filters: readonly WizardFilter[]): WizardFilter[] {
  return filters.map((filter) => ({ ...filter, values: cleanValues(filter.values) })).filter((f) => f.values.length > 0);
}

/** Every broken filter rule (spec 2 §5); empty when step 1 may be left. */
export function validateFilters(filters: readonly WizardFilter[]): string[] {
  const errors: string[] = [];
  const configured = configuredFilters(filters);
  if (configured.length === 0) errors.push(WIZARD_MESSAGES.filtersMissing);
  if (filters.length > MAX_FILTERS) errors.push(WIZARD_MESSAGES.filtersTooMany);
  const types = filters.map((filter) => filter.filterType);
  if (new Set(types).size !== types.length) errors.push(WIZARD_MESSAGES.filtersDuplicate);
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Step 2: name, amount, alerts

export function validateName(name: string): string | null {
  const trimmed = name.trim();
  // Counted in characters (code points), as the server does.
  const length = Array.from(trimmed).length;
  if (length === 0) return WIZARD_MESSAGES.nameRequired;
  if (length < MIN_NAME_CHARS) return WIZARD_MESSAGES.nameTooShort;
  if (length > MAX_NAME_CHARS) return WIZARD_MESSAGES.nameTooLong;
  return null;
}

/** The amount as a number, or NaN when the text is not one. */
export function parseAmount(amount: string): number {
  const text = amount.trim();
  return text === '' ? Number.NaN : Number(text);
}

export function validateAmount(amount: string): string | null {
  const value = parseAmount(amount);
  return Number.isFinite(value) && value > 0 ? null : WIZARD_MESSAGES.amountNotPositive;
}

/** What a threshold input keeps of what was typed: digits only. */
export function sanitizeThresholdInput(text: string): string {
  return text.replace(/\D/g, '');
}

/** A threshold as a number, or NaN when the text is not a plain decimal number. */
function parseThreshold(value: string): number {
  return /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/**
 * The first broken rule of one alert, or null. `amount` is the budget amount; while it is not a
 * valid number the absolute cap cannot be judged and is skipped (the amount has its own error).
 */
export function validateAlert(alert: Pick<WizardAlert, 'thresholdType' | 'value'>, amount: number): string | null {
  const value = parseThreshold(alert.value);
  if (!Number.isFinite(value) || value <= 0) return WIZARD_MESSAGES.thresholdNotPositive;
  if (alert.thresholdType === 'Percentage') {
    if (value < MIN_PERCENTAGE) return WIZARD_MESSAGES.percentageTooLow;
    if (value > MAX_PERCENTAGE) return WIZARD_MESSAGES.percentageTooHigh;
    return null;
  }
  if (Number.isFinite(amount) && amount > 0 && value > amount) return WIZARD_MESSAGES.absoluteAboveAmount;
  return null;
}

/** Why another alert cannot be added, or null. */
export function addAlertError(alerts: readonly WizardAlert[]): string | null {
  return alerts.length >= MAX_ALERTS ? WIZARD_MESSAGES.alertsTooMany : null;
}

/** A new alert's percentage: the first of 25, 50, 75, 90 no percentage alert has, else 50. */
export function nextSuggestedThreshold(alerts: readonly WizardAlert[]): number {
  const used = alerts.filter((alert) => alert.thresholdType === 'Percentage').map((alert) => parseThreshold(alert.value));
  return SUGGESTED_THRESHOLDS.find((value) => !used.includes(value)) ?? FALLBACK_THRESHOLD;
}

/** Whether a percentage alert already has this value (a suggested quick pick is then spent). */
export function hasPercentageAlert(alerts: readonly WizardAlert[], value: number): boolean {
  return alerts.some((alert) => alert.thresholdType === 'Percentage' && parseThreshold(alert.value) === value);
}

/** The alerts with one more percentage alert (`value`, else the next suggested one); capped at 5. */
export function addAlert(alerts: readonly WizardAlert[], id: string, value?: number): WizardAlert[] {
  if (addAlertError(alerts) !== null) return [...alerts];
  const threshold = value ?? nextSuggestedThreshold(alerts);
  return [...alerts, { id, thresholdType: 'Percentage', value: String(threshold), basis: DEFAULT_BASIS }];
}

export function clampPercentage(value: number): number {
  return Math.min(MAX_PERCENTAGE, Math.max(MIN_PERCENTAGE, value));
}

/**
 * The alert switched to another type. Switching to percentage clamps the value to 1-100 (an
 * empty value stays empty for the user to fill in); switching to dollars keeps it.
 */
export function switchAlertType(alert: WizardAlert, type: ThresholdType): WizardAlert {
  if (alert.thresholdType === type) return alert;
  if (type === 'Absolute' || alert.value.trim() === '') return { ...alert, thresholdType: type };
  const value = parseThreshold(alert.value);
  const clamped = Number.isFinite(value) ? clampPercentage(value) : MIN_PERCENTAGE;
  return { ...alert, thresholdType: type, value: String(clamped) };
}

// ---------------------------------------------------------------------------------------------
// The whole form

export interface WizardErrors {
  name: string | null;
  amount: string | null;
  filters: string[];
  /** Count rule of the alert list ('Maximum of 5 alerts allowed'). */
  alertList: string | null;
  /** Alert id → its first broken rule. */
  alerts: Record<string, string>;
}

export function validateForm(form: WizardForm): WizardErrors {
  const amount = parseAmount(form.amount);
  const alerts: Record<string, string> = {};
  for (const alert of form.alerts) {
    const error = validateAlert(alert, amount);
    if (error) alerts[alert.id] = error;
  }
  return {
    name: validateName(form.name),
    amount: validateAmount(form.amount),
    filters: validateFilters(form.filters),
    alertList: form.alerts.length > MAX_ALERTS ? WIZARD_MESSAGES.alertsTooMany : null,
    alerts,
  };
}

/** Every message of the form once, in the order the fields appear: the 'Please fix' list. */
export function errorList(errors: WizardErrors): string[] {
  const all = [
    ...errors.filters,
    errors.name,
    errors.amount,
    errors.alertList,
    ...Object.values(errors.alerts),
  ].filter((message): message is string => message !== null);
  return [...new Set(all)];
}

// ---------------------------------------------------------------------------------------------
// Saving

/**
 * Alerts as numbers, a repeated type, value and basis dropped silently (spec 2 §5: "in the
 * wizard, silently"; the basis counts, as the server's duplicate rule says).
 */
function uniqueAlerts(alerts: readonly WizardAlert[]): AlertThreshold[] {
  const out: AlertThreshold[] = [];
  for (const alert of alerts) {
    const next: AlertThreshold = { thresholdType: alert.thresholdType, thresholdValue: parseThreshold(alert.value), basis: alert.basis };
    if (!out.some((kept) => isSameAlert(kept, next))) out.push(next);
  }
  return out;
}

/** The body of POST /v1/budgets and PUT /v1/budgets/{id} for a valid form. */
export function buildBudgetRequest(form: WizardForm): BudgetRequest {
  return {
    name: form.name.trim(),
    amount: parseAmount(form.amount),
    period: form.period,
    filters: configuredFilters(form.filters).map(({ filterType, values }) => ({ filterType, filterValues: values })),
    alerts: uniqueAlerts(form.alerts),
    channelIds: [...form.channelIds],
  };
}

/** The field messages of a 422 answer (`details`: field → messages), in field order, once each. */
export function serverFieldMessages(error: unknown): string[] {
  if (!isApiError(error) || error.status !== 422 || !error.details) return [];
  const messages = Object.values(error.details).flatMap((value) =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : [],
  );
  return [...new Set(messages)];
}
