/**
 * The screen's state in the query string, so that a view can be shared as a link:
 * `?period=lastMonth&view=monthly&group=service,region&include=Usage,regular&filters=aws(service=AmazonEC2)`.
 *
 * Custom ranges add `from` and `to` (YYYY-MM-DD). `filters` is a compact form of the filter
 * rules: rules joined by `~`, each `provider(condition;condition)` (a cloud's code or another
 * provider's percent-encoded name, `Oracle`), a condition
 * `field=value|value` or `field!=value` (fields service, region, account, `tag:{key}`; a tag
 * without values means the key exists). Values and tag keys are percent-encoded, including the
 * characters `!'()*~`, so they never contain a separator; the rest of the string is left as it is
 * so that the link stays readable.
 *
 * A query string with any of these parameters is a complete state: what it leaves out takes the
 * default, not what this browser stored, so a shared link opens the same view everywhere.
 */
import {
  ANALYSIS_PRESETS,
  CHARGE_TYPES,
  DEFAULT_PRESET,
  decodeDrillPath,
  encodeDrillPath,
  escapeToken,
  unescapeToken,
  type CostInclusions,
} from '@/lib/cost';
import {
  flatFiltersToRules,
  providerCode,
  rulesToFlatFiltersAnyProvider,
  type FilterCondition,
  type FilterRule,
  type FlatFilter,
} from '@/lib/cost-filters';
import type { AnalysisState, PeriodChoice, ViewType } from '../types';
import { DEFAULT_STATE, DEFAULT_VIEW, isGroupKey, isViewType, withDimensions } from './analysis-state';
import { activeDrillPath } from './drill-state';

export const URL_PARAMS = ['period', 'from', 'to', 'view', 'group', 'include', 'filters', 'drill'] as const;
/** `?report={id}` opens a saved report (the Cost Report page links with it). */
export const REPORT_PARAM = 'report';

const CONDITION_FIELDS = ['service', 'region', 'account', 'usage_type'] as const;
/** The provider of a rule that holds conditions for any provider (a drill-down's, or a `drillUrl` link's). */
const ANY_PROVIDER = '*';
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export { escapeToken };

function encodeCondition(condition: FilterCondition): string | null {
  if (condition.field === 'tag') {
    const key = condition.tagKey?.trim();
    if (!key) return null;
    if (condition.value.length === 0) return `tag:${escapeToken(key)}`;
    const op = condition.tagValueOperator === 'not_equals' ? '!=' : '=';
    return `tag:${escapeToken(key)}${op}${condition.value.map(escapeToken).join('|')}`;
  }
  if (!condition.field || condition.value.length === 0) return null;
  const op = condition.operator === 'not_equals' ? '!=' : '=';
  return `${condition.field}${op}${condition.value.map(escapeToken).join('|')}`;
}

/** The applied filters in the compact form ('' for none). */
export function encodeFilters(filters: FlatFilter[]): string {
  return flatFiltersToRules(filters)
    .map((rule) => {
      const conditions = rule.conditions.map(encodeCondition).filter((c): c is string => c !== null);
      if (!rule.provider) return conditions.length ? `${ANY_PROVIDER}(${conditions.join(';')})` : null;
      const provider = escapeToken(rule.provider);
      return conditions.length ? `${provider}(${conditions.join(';')})` : provider;
    })
    .filter((part): part is string => part !== null)
    .join('~');
}

function decodeCondition(text: string, id: string): FilterCondition | null {
  const match = /^(service|region|account|usage_type|tag:[^=!]+)(?:(!?=)(.*))?$/.exec(text);
  if (!match) return null;
  const [, field, op, rawValues] = match;
  const values = rawValues ? rawValues.split('|').map(unescapeToken).filter((v) => v.trim() !== '') : [];
  const operator = op === '!=' ? 'not_equals' : 'equals';
  if (field.startsWith('tag:')) {
    const tagKey = unescapeToken(field.slice(4)).trim();
    if (!tagKey) return null;
    return { id, field: 'tag', operator: 'equals', value: values, tagKey, tagValueOperator: operator };
  }
  if (!(CONDITION_FIELDS as readonly string[]).includes(field) || values.length === 0) return null;
  return { id, field: field as FilterCondition['field'], operator, value: values };
}

/** The compact form back as flat filters; unreadable parts are left out. */
export function decodeFilters(text: string, now: Date = new Date()): FlatFilter[] {
  const rules: FilterRule[] = [];
  text.split('~').forEach((part, r) => {
    // Any provider: a cloud's code or another provider's (escaped) name; `*` for any provider.
    const match = /^([^()~;]+)(?:\((.*)\))?$/.exec(part.trim());
    if (!match) return;
    const anyProvider = match[1] === ANY_PROVIDER;
    const provider = anyProvider ? '' : providerCode(unescapeToken(match[1]));
    if (!anyProvider && !provider) return;
    const conditions = (match[2] ?? '')
      .split(';')
      .filter(Boolean)
      .map((c, i) => decodeCondition(c, `url-condition-${r}-${i}`))
      .filter((c): c is FilterCondition => c !== null);
    if (anyProvider && conditions.length === 0) return;
    rules.push({ id: `url-rule-${r}`, provider, conditions });
  });
  return rulesToFlatFiltersAnyProvider(rules, now);
}

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

/** The raw (still encoded) parameters of a query string, in order. */
export function rawParams(search: string): Array<[string, string]> {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      return eq < 0 ? [unescapeToken(part), ''] : [unescapeToken(part.slice(0, eq)), part.slice(eq + 1)];
    });
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
  const known = ANALYSIS_PRESETS.find((option) => option.value === preset);
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
