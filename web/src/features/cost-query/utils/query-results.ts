/** The answer of POST /v1/query as the page shows and exports it. */
import { groupKeyLabel, rowDimension, toCsv, type CostAggrResponse, type CostRow, type DrillDimension } from '@/lib/cost';

export type CostQueryAnswer = CostAggrResponse;

/** A row's group as shown: accounts by their name when the API has one (the other screens' rule). */
export function queryRowLabel(row: CostRow, groupBy: DrillDimension): string {
  return rowDimension(row, groupBy);
}

/** The row's part of the total in percent; null when the total is 0. */
export function shareOf(amount: number, total: number): number | null {
  if (!Number.isFinite(total) || total === 0) return null;
  return (amount / total) * 100;
}

/**
 * The CSV of an answer: one line per row in the API's order, then the total. The amount column
 * names the answer's currency; amounts and shares are unrounded numbers (share empty without a total).
 */
export function queryCsv(answer: CostQueryAnswer, groupBy: DrillDimension): string {
  const total = answer.summary.accrued_cost;
  const header = [groupKeyLabel(groupBy), `Amount (${answer.currency})`, 'Share %'];
  const lines: unknown[][] = answer.data.map((row) => [queryRowLabel(row, groupBy), row.amount, shareOf(row.amount, total) ?? '']);
  lines.push(['Total', total, total === 0 ? '' : 100]);
  return toCsv(header, lines);
}
