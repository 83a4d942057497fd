/**
 * The screen's state in the query string, so that a view can be shared as a link:
 * `?period=lastMonth&view=monthly&group=service,region&include=Usage,regular&filters=aws(service=AmazonEC2)`.
 *
 * Custom ranges add `from` and `to` (YYYY-MM-DD). `filters` is the compact form of the filter
 * rules written by `encodeFilters` (`lib/cost-filters/url-codec.ts`).
 *
 * A query string with any of these parameters is a complete state: what it leaves out takes the
 * default, not what this browser stored, so a shared link opens the same view everywhere.
 */
import {
  ADVANCED_COST_PRESETS,
  CHARGE_TYPES,
  DEFAULT_PRESET,
  decodeDrillPath,
  encodeDrillPath,
  escapeToken,
  unescapeToken,
  type CostInclusions,
} from '@/lib/cost';
import { decodeFilters, encodeFilters, rawParams } from '@/lib/cost-filters';
import type { AnalysisState, PeriodChoice, ViewType } from '../types';
import { DEFAULT_STATE, DEFAULT_VIEW, isGroupKey, isViewType, withDimensions } from './analysis-state';
import { activeDrillPath } from './drill-state';

export const URL_PARAMS = ['period', 'from', 'to', 'view', 'group', 'include', 'filters', 'drill'] as const;
/** `?report={id}` opens a saved report (the Cost Report page links with it). */
export const REPORT_PARAM = 'report';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function includedNames(inclusions: CostInclusions): string[] {
  return Object.entries(inclusions)
    .filter(([, on]) => on)
    .map(([name]) => name);
}

/** The query string (with its `?`) for a state; `keep` holds other parameters to carry over. */
export function encodeAnalysisSearch(state: AnalysisState, keep: Array<[string, string]> = []): string {
  const parts: string[] = [`period=${escapeToken(state.period.preset)}`];
  if (state.period.preset === 'custom') {
    if (state.period.startDate) parts.push(`from=${state.period.startDate}`);
    if (state.period.endDate) parts.push(`to=${state.period.endDate}`);
  }
  parts.push(`view=${state.viewType}`);
  if (state.grouping.groupByDimensions.length) parts.push(`group=${state.grouping.groupByDimensions.join(',')}`);
  parts.push(`include=${includedNames(state.inclusions).map(escapeToken).join(',')}`);
  const filters = encodeFilters(state.filters);
  if (filters) parts.push(`filters=${filters}`);
  // Steps whose conditions were edited away are left out (docs/ANALYST-FLOW.md "Drill-down").
  const drill = activeDrillPath(state);
  if (drill.length) parts.push(`drill=${encodeDrillPath(drill)}`);
  for (const [key, value] of keep) parts.push(`${escapeToken(key)}=${escapeToken(value)}`);
  return `?${parts.join('&')}`;
}

/** The parameters of a query string that are not the screen's own (kept when it is rewritten). */
export function foreignParams(search: string): Array<[string, string]> {
  return rawParams(search)
    .filter(([key]) => !(URL_PARAMS as readonly string[]).includes(key) && key !== REPORT_PARAM)
    .map(([key, value]) => [key, unescapeToken(value)]);
}

/** One decoded parameter, or null when absent. */
export function searchParam(search: string, name: string): string | null {
  const found = rawParams(search).find(([key]) => key === name);
  return found ? unescapeToken(found[1]) : null;
}

function decodePeriod(preset: string | undefined, from: string | undefined, to: string | undefined): PeriodChoice {
  if (!preset) return { preset: DEFAULT_PRESET };
  if (preset === 'custom') {
    return {
      preset: 'custom',
      ...(from && DATE_RE.test(from) ? { startDate: from } : {}),
      ...(to && DATE_RE.test(to) ? { endDate: to } : {}),
    };
  }
  const known = ADVANCED_COST_PRESETS.find((option) => option.value === preset);
  if (known) return { preset: known.value };
  // §4: an unknown preset falls back to This Month with a warning.
  console.warn(`Unknown time range preset "${preset}"; using ${DEFAULT_PRESET}`);
  return { preset: DEFAULT_PRESET };
}

function decodeInclusions(raw: string): CostInclusions {
  const names = raw.split(',').map(unescapeToken).filter(Boolean);
  const inclusions: CostInclusions = Object.fromEntries(CHARGE_TYPES.map(({ value }) => [value, false]));
  for (const name of names) inclusions[name] = true;
  return inclusions;
}

/**
 * The state a query string describes, or null when it has none of the screen's parameters.
 * The grouping's hierarchy flag and sort order are not in the link; they come from `base`.
 */
export function decodeAnalysisSearch(
  search: string,
  base: Pick<AnalysisState, 'grouping'> = DEFAULT_STATE,
  now: Date = new Date(),
): AnalysisState | null {
  const params = new Map(rawParams(search));
  if (!URL_PARAMS.some((name) => params.has(name))) return null;
  const value = (name: string) => (params.has(name) ? unescapeToken(params.get(name)!) : undefined);
  const view = value('view');
  const groups = (value('group') ?? '').split(',').filter(isGroupKey);
  const include = params.get('include');
  const filters = params.get('filters');
  const drill = params.get('drill');
  const steps = drill ? decodeDrillPath(drill) : [];
  return {
    period: decodePeriod(value('period'), value('from'), value('to')),
    viewType: isViewType(view) ? (view as ViewType) : DEFAULT_VIEW,
    grouping: withDimensions(base.grouping, groups),
    inclusions: include === undefined ? DEFAULT_STATE.inclusions : decodeInclusions(include),
    filters: filters ? decodeFilters(filters, now) : [],
    ...(steps.length ? { drill: steps } : {}),
  };
}
