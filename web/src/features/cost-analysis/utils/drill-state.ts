/**
 * Drill-down on Advanced Cost (docs/ANALYST-FLOW.md "Drill-down"): a click on a value of the
 * primary grouping adds that value as a filter condition (or a provider rule, or the only
 * charge type) and moves the grouping to the next dimension (`nextDrillDimension`); the path of
 * clicked values is the breadcrumb, kept in the link (`drill=`), and a crumb steps back.
 */
import {
  DEFAULT_INCLUSIONS,
  UNKNOWN_DIMENSION,
  includedChargeTypes,
  nextDrillDimension,
  rowDimension,
  type CostRow,
  type DrillDimension,
  type DrillStep,
} from '@/lib/cost';
import {
  flatFiltersToRules,
  newFilterId,
  providerCode,
  providerLabel,
  rulesToFlatFiltersAnyProvider,
  type FilterCondition,
  type FilterRule,
} from '@/lib/cost-filters';
import type { AnalysisState } from '../types';
import { withDimensions } from './analysis-state';
import { groupLabel } from './group-label';

type ConditionDimension = 'service' | 'usage_type' | 'account' | 'region';

/** The crumb's name of each dimension ("Service: AmazonEC2", "Usage type: BoxUsage"). */
const CRUMB_NAMES: Record<DrillDimension, string> = {
  service: 'Service',
  usage_type: 'Usage type',
  account: 'Account',
  region: 'Region',
  cloud_provider: 'Cloud provider',
  cost_type: 'Charge type',
};

/** The first crumb: the view before any drill. */
export const ALL_COSTS_CRUMB = 'All costs';

export function crumbLabel(step: DrillStep): string {
  const value = step.dimension === 'cloud_provider' ? providerLabel(step.value) : step.value;
  return `${CRUMB_NAMES[step.dimension]}: ${value}`;
}

function isDrillCondition(condition: FilterCondition, step: DrillStep): boolean {
  return (
    condition.field === step.dimension &&
    condition.operator === 'equals' &&
    condition.value.length === 1 &&
    condition.value[0] === step.value
  );
}

/** Whether the state still has what a step added (a hand edit may have removed it). */
export function stepApplies(state: Pick<AnalysisState, 'filters' | 'inclusions'>, step: DrillStep): boolean {
  if (step.dimension === 'cost_type') {
    const included = includedChargeTypes(state.inclusions);
    return included.length === 1 && included[0] === step.value;
  }
  const rules = flatFiltersToRules(state.filters);
  if (step.dimension === 'cloud_provider') return rules.some((rule) => rule.provider === providerCode(step.value));
  return rules.some((rule) => rule.conditions.some((condition) => isDrillCondition(condition, step)));
}

/** The link's drill path without the steps whose conditions are no longer applied. */
export function activeDrillPath(state: AnalysisState): DrillStep[] {
  return (state.drill ?? []).filter((step) => stepApplies(state, step));
}

function withRules(rules: FilterRule[], now: Date) {
  return rulesToFlatFiltersAnyProvider(rules, now);
}

function addStep(state: AnalysisState, step: DrillStep, now: Date): Pick<AnalysisState, 'filters' | 'inclusions'> {
  if (step.dimension === 'cost_type') {
    const none = Object.fromEntries(Object.keys(state.inclusions).map((name) => [name, false]));
    return { filters: state.filters, inclusions: { ...none, [step.value]: true } };
  }
  const rules = flatFiltersToRules(state.filters);
  if (step.dimension === 'cloud_provider') {
    const provider = providerCode(step.value);
    // (R1 or R2 …) and provider = P: rules for any provider become P's, other providers' go.
    const kept = rules.filter((rule) => !rule.provider || rule.provider === provider).map((rule) => ({ ...rule, provider }));
    return {
      filters: withRules(kept.length ? kept : [{ id: newFilterId('rule'), provider, conditions: [] }], now),
      inclusions: state.inclusions,
    };
  }
  const dimension = step.dimension as ConditionDimension;
  const condition = (): FilterCondition => ({ id: newFilterId('condition'), field: dimension, operator: 'equals', value: [step.value] });
  // (R1 or R2 …) and value: the condition joins every rule (once).
  const next = rules.length
    ? rules.map((rule) =>
        rule.conditions.some((c) => isDrillCondition(c, step)) ? rule : { ...rule, conditions: [...rule.conditions, condition()] },
      )
    : [{ id: newFilterId('rule'), provider: '', conditions: [condition()] }];
  return { filters: withRules(next, now), inclusions: state.inclusions };
}

function removeStep(state: AnalysisState, step: DrillStep, now: Date): Pick<AnalysisState, 'filters' | 'inclusions'> {
  if (step.dimension === 'cost_type') return { filters: state.filters, inclusions: DEFAULT_INCLUSIONS };
  const rules = flatFiltersToRules(state.filters);
  let next: FilterRule[];
  if (step.dimension === 'cloud_provider') {
    const provider = providerCode(step.value);
    next = rules.map((rule) => (rule.provider === provider ? { ...rule, provider: '' } : rule));
  } else {
    next = rules.map((rule) => {
      const index = rule.conditions.map((c) => isDrillCondition(c, step)).lastIndexOf(true);
      return index < 0 ? rule : { ...rule, conditions: rule.conditions.filter((_, i) => i !== index) };
    });
  }
  // A rule for any provider with nothing left in it is no rule.
  next = next.filter((rule) => rule.provider || rule.conditions.length > 0);
  return { filters: withRules(next, now), inclusions: state.inclusions };
}

/**
 * The state after a click on `value` of the primary grouping `dimension`: the value's condition
 * added, grouped by the next dimension (the others kept after it), the step added to the path.
 */
export function drillInto(state: AnalysisState, dimension: DrillDimension, value: string, now: Date = new Date()): AnalysisState {
  const step: DrillStep = { dimension, value };
  const path = activeDrillPath(state);
  const next = nextDrillDimension(dimension);
  const dims = state.grouping.groupByDimensions;
  const grouping = next ? withDimensions(state.grouping, [next, ...dims.slice(1)]) : state.grouping;
  return { ...state, ...addStep(state, step, now), grouping, drill: [...path, step] };
}

/**
 * The state after a click on crumb `keep` (0 = All costs, k = the k-th step): the conditions of
 * the later steps removed and the primary grouping back to the one the first of them was clicked in.
 */
export function stepBack(state: AnalysisState, keep: number, now: Date = new Date()): AnalysisState {
  const path = activeDrillPath(state);
  const removed = path.slice(keep);
  if (removed.length === 0) return state;
  let next: AnalysisState = state;
  for (const step of [...removed].reverse()) next = { ...next, ...removeStep(next, step, now) };
  const dims = state.grouping.groupByDimensions;
  const grouping = withDimensions(state.grouping, [removed[0].dimension, ...dims.slice(1)]);
  const result: AnalysisState = { ...next, grouping, drill: path.slice(0, keep) };
  if (!result.drill?.length) delete result.drill;
  return result;
}

/** The value a filter needs for a row of `dimension`: an account's id, a provider's code. */
export function drillValueOfRow(row: CostRow, dimension: DrillDimension): string | null {
  const label = rowDimension(row as CostRow & Record<string, unknown>, dimension);
  if (label === UNKNOWN_DIMENSION) return null;
  if (dimension === 'account') return row.account?.trim() || label;
  if (dimension === 'cloud_provider') return providerCode(label);
  return label;
}

/**
 * The filter value behind a shown label (`groupLabel`) of `dimension`, looked up in the rows of
 * the answer; a label not among them is read back (an account's "Name (id)", a provider's name).
 * Null for "Unknown", which no condition can select.
 */
export function drillValueOfLabel(label: string, dimension: DrillDimension, rows: ReadonlyArray<CostRow> = []): string | null {
  if (label === UNKNOWN_DIMENSION) return null;
  const row = rows.find((r) => groupLabel(r, dimension) === label);
  if (row) return drillValueOfRow(row, dimension);
  if (dimension === 'cloud_provider') return providerCode(label);
  if (dimension === 'account') return /\(([^()]+)\)$/.exec(label)?.[1] ?? label;
  return label;
}
