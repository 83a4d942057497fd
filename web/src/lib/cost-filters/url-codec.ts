/**
 * The compact form of the applied filters in a link's `filters` parameter, written the same way by
 * every page that puts filters in its URL (Advanced Cost, Compare), so the same text means the same
 * thing everywhere: `aws(service=AmazonEC2|AmazonS3;region!=us-east-1)~gcp`.
 *
 * Rules are joined by `~`, each `provider(condition;condition)` (a cloud's code or another
 * provider's percent-encoded name, `Oracle`; `*` for conditions that hold for any provider), a
 * condition `field=value|value` or `field!=value` (fields service, region, account, usage_type,
 * `tag:{key}`; a tag without values means the key exists, `tag:{key}:missing` that it is missing or
 * empty, `tag:{key}:present` that it has a value). Values and tag keys are percent-encoded,
 * including the characters `!'()*~`, so they never contain a separator; the rest of the string is
 * left as it is so that the link stays readable.
 */
import { escapeToken, unescapeToken } from '@/lib/cost';
import { providerCode } from './constants';
import { flatFiltersToRules, rulesToFlatFiltersAnyProvider } from './rules';
import type { FilterCondition, FilterRule, FlatFilter } from './types';

const CONDITION_FIELDS = ['service', 'region', 'account', 'usage_type'] as const;
/** The provider of a rule that holds conditions for any provider (a drill-down's, or a `drillUrl` link's). */
const ANY_PROVIDER = '*';

function encodeCondition(condition: FilterCondition): string | null {
  if (condition.field === 'tag') {
    const key = condition.tagKey?.trim();
    if (!key) return null;
    if (condition.tagValueOperator === 'is_empty') return `tag:${escapeToken(key)}:missing`;
    if (condition.tagValueOperator === 'is_not_empty') return `tag:${escapeToken(key)}:present`;
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

/** The suffix of a tag condition without values (a key is escaped, so it holds no `:`). */
const TAG_PRESENCE: Record<string, 'is_empty' | 'is_not_empty'> = { missing: 'is_empty', present: 'is_not_empty' };

function decodeCondition(text: string, id: string): FilterCondition | null {
  const presence = /^tag:([^=!:]+):(missing|present)$/.exec(text);
  if (presence) {
    const tagKey = unescapeToken(presence[1]).trim();
    return tagKey ? { id, field: 'tag', operator: 'equals', value: [], tagKey, tagValueOperator: TAG_PRESENCE[presence[2]] } : null;
  }
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
