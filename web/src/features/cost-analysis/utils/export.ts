import { datedFileName, groupKeyLabel, includedChargeTypes, toCsv, type CostSummary, type GroupKey, type TimeRange } from '@/lib/cost';
import { flatFiltersToRules } from '@/lib/cost-filters';
import type { AnalysisState } from '../types';
import { VIEW_OPTIONS } from './analysis-state';
import type { Capped, GroupTableRow, PeriodTableRow } from './table-rows';

export const EXPORT_PREFIX = 'cost-analysis';
/** §8 "CSV export failure" (the JSON export says the same of its file). */
export const JSON_EXPORT_FAILED_MESSAGE =
  'Failed to export JSON file. Please try again or contact support if the issue persists.';

export interface ExportTable {
  header: string[];
  rows: Array<Array<string | number | null>>;
}

const cents = (amount: number) => Math.round(amount * 100) / 100;
const tenths = (share: number | null) => (share === null ? null : Math.round(share * 10) / 10);

/** The table on screen (every page, within the caps) as a header and rows. */
export function exportTable(
  groupRows: Capped<GroupTableRow> | null,
  periodRows: Capped<PeriodTableRow> | null,
  dimensions: Exclude<GroupKey, 'none'>[],
  cumulative: boolean,
): ExportTable {
  if (groupRows) {
    return {
      header: [...dimensions.map(groupKeyLabel), 'Cost (USD)', 'Share of total (%)'],
      rows: groupRows.rows.map((row) => [...row.values, cents(row.amount), tenths(row.share)]),
    };
  }
  const rows = periodRows?.rows ?? [];
  if (cumulative) return { header: ['Period', 'Cumulative cost (USD)'], rows: rows.map((row) => [row.period, cents(row.amount)]) };
  return {
    header: ['Period', 'Cost (USD)', 'Share of total (%)'],
    rows: rows.map((row) => [row.period, cents(row.amount), tenths(row.share)]),
  };
}

export function exportCsv(table: ExportTable): string {
  return toCsv(table.header, table.rows);
}

/** The result with what it was asked for, as JSON. */
export function exportJson(table: ExportTable, state: AnalysisState, range: TimeRange, summary: CostSummary | undefined): string {
  const rows = table.rows.map((cells) => Object.fromEntries(table.header.map((name, i) => [name, cells[i]])));
  return `${JSON.stringify(
    {
      period: { preset: state.period.preset, start: range.start, end: range.end },
      view: VIEW_OPTIONS.find((option) => option.value === state.viewType)?.label ?? state.viewType,
      groupBy: state.grouping.groupByDimensions.map(groupKeyLabel),
      includedChargeTypes: includedChargeTypes(state.inclusions),
      filters: flatFiltersToRules(state.filters).map(({ provider, conditions }) => ({
        provider,
        conditions: conditions.map(({ field, operator, value, tagKey, tagValueOperator }) => ({
          field,
          operator,
          value,
          ...(field === 'tag' ? { tagKey, tagValueOperator } : {}),
        })),
      })),
      summary: summary ? { totalCost: summary.accrued_cost, previousCost: summary.previous_cost, changePercent: summary.accrued_change ?? null, currency: summary.currency } : null,
      rows,
    },
    null,
    2,
  )}\n`;
}

export function exportFileName(extension: 'csv' | 'json', now: Date = new Date()): string {
  return datedFileName(EXPORT_PREFIX, extension, now);
}
