/** The POST /v1/query body of the page (docs/API-COST.md "POST /v1/query"). */
import type { DrillDimension, TimeRange } from '@/lib/cost';
import type { FilterLogic, FlatFilter } from '@/lib/cost-filters';

/** One condition as the API reads it; amounts go as numbers (between: `[from, to]`). */
export interface CostQueryFilter {
  field: string;
  operator: string;
  value: string | string[] | number | Array<number | string>;
  tagKey?: string;
}

export interface CostQueryBody {
  filters: CostQueryFilter[];
  logic: FilterLogic;
  start_time: string;
  end_time: string;
  group_by: DrillDimension;
}

/** An amount as a number; text that is not one is sent as typed, so the server names the problem. */
function amount(text: string): number | string {
  const number = Number(text);
  return text.trim() !== '' && Number.isFinite(number) ? number : text;
}

export function toQueryFilter(filter: FlatFilter): CostQueryFilter {
  const base = { field: filter.field, operator: filter.operator, ...(filter.tagKey ? { tagKey: filter.tagKey } : {}) };
  if (filter.field === 'cost_amount') {
    const amounts = filter.value.map(amount);
    return { ...base, value: filter.operator === 'between' ? amounts : (amounts[0] ?? '') };
  }
  if (filter.operator === 'in' || filter.operator === 'not_in') return { ...base, value: filter.value };
  return { ...base, value: filter.value[0] ?? '' };
}

export function costQueryBody(
  filters: FlatFilter[],
  logic: FilterLogic,
  range: Pick<TimeRange, 'start' | 'end'>,
  groupBy: DrillDimension,
): CostQueryBody {
  return { filters: filters.map(toQueryFilter), logic, start_time: range.start, end_time: range.end, group_by: groupBy };
}
