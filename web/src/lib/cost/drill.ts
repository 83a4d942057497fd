/**
 * Drill-down (docs/ANALYST-FLOW.md "Drill-down"): the grouping a click on a value of one
 * dimension moves to. One table, used by the Advanced Cost chart and table, Compare rows and
 * Mission Control's Top movers.
 */
import { GROUP_BY_OPTIONS, type GroupKey } from './dimensions';
import type { CostInclusions } from './inclusions';

export type DrillDimension = Exclude<GroupKey, 'none'>;

/** Group By's dimensions without Ungrouped: the choices of a one-dimension grouping (Compare, Cost Query). */
export const DIMENSION_OPTIONS = GROUP_BY_OPTIONS.filter(
  (option): option is { value: DrillDimension; label: string } => option.value !== 'none',
);

const NEXT: Record<DrillDimension, DrillDimension | null> = {
  service: 'usage_type',
  usage_type: null,
  account: 'service',
  region: 'service',
  cloud_provider: 'account',
  cost_type: 'service',
};

/** The grouping after drilling into a value of `dimension`; null at the last level (keep the grouping). */
export function nextDrillDimension(dimension: DrillDimension): DrillDimension | null {
  return NEXT[dimension];
}

export function isDrillDimension(value: unknown): value is DrillDimension {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(NEXT, value);
}

/** One step of a drill-down: the value of a dimension that was clicked. */
export interface DrillStep {
  dimension: DrillDimension;
  value: string;
}

/**
 * encodeURIComponent that also escapes `!'()*~`, the separators of the compact filter form and
 * of the drill path, so that an escaped value never contains one.
 */
export function escapeToken(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function unescapeToken(token: string): string {
  try {
    return decodeURIComponent(token.replace(/\+/g, ' '));
  } catch {
    return token;
  }
}

/** The `drill` parameter: `service:AmazonEC2~usage_type:BoxUsage%3Am5.large` ('' for no steps). */
export function encodeDrillPath(steps: ReadonlyArray<DrillStep>): string {
  return steps.map((step) => `${step.dimension}:${escapeToken(step.value)}`).join('~');
}

/** The (still escaped) `drill` parameter back as steps; unreadable steps are left out. */
export function decodeDrillPath(text: string): DrillStep[] {
  return text
    .split('~')
    .map((part) => {
      const colon = part.indexOf(':');
      if (colon < 0) return null;
      const dimension = part.slice(0, colon);
      const value = unescapeToken(part.slice(colon + 1));
      return isDrillDimension(dimension) && value.trim() !== '' ? { dimension, value } : null;
    })
    .filter((step): step is DrillStep => step !== null);
}

/** The filter condition field of the compact `filters` form for each condition dimension. */
const CONDITION_FIELD: Partial<Record<DrillDimension, string>> = {
  service: 'service',
  usage_type: 'usage_type',
  account: 'account',
  region: 'region',
};

export interface DrillBase {
  /** A time range preset (`lastMonth`, `custom` …); Advanced Cost's default when absent. */
  period?: string;
  /** With `period: 'custom'`: YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** The charge types to keep (a map as the Include select holds it, or the names). */
  include?: CostInclusions | ReadonlyArray<string>;
}

function includedNames(include: CostInclusions | ReadonlyArray<string>): string[] {
  if (Array.isArray(include)) return [...include];
  return Object.entries(include as CostInclusions)
    .filter(([, on]) => on)
    .map(([name]) => name);
}

/**
 * A link to Advanced Cost drilled into one value of a dimension, as a click on that value in
 * its grouped view would leave it: the value as a filter condition (any provider; a provider as
 * a provider rule; a charge type as the only Include), grouped by the next dimension, and the
 * drill path in `drill` so that the breadcrumb can step back.
 */
export function drillUrl(dimension: DrillDimension, value: string, base: DrillBase = {}): string {
  const parts: string[] = [];
  if (base.period) parts.push(`period=${escapeToken(base.period)}`);
  if (base.period === 'custom') {
    if (base.from) parts.push(`from=${escapeToken(base.from)}`);
    if (base.to) parts.push(`to=${escapeToken(base.to)}`);
  }
  parts.push(`group=${nextDrillDimension(dimension) ?? dimension}`);
  const include = dimension === 'cost_type' ? [value] : base.include ? includedNames(base.include) : null;
  if (include) parts.push(`include=${include.map(escapeToken).join(',')}`);
  const field = CONDITION_FIELD[dimension];
  if (field) parts.push(`filters=*(${field}=${escapeToken(value)})`);
  else if (dimension === 'cloud_provider') parts.push(`filters=${escapeToken(value)}`);
  parts.push(`drill=${encodeDrillPath([{ dimension, value }])}`);
  return `/cost/advanced?${parts.join('&')}`;
}
