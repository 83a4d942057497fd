import { rowDimension, type CostRow } from '@/lib/cost';
import { isOnDemandUsage, previousGenerationFamily } from './saving-rules';

export interface UsageFinding {
  rows: Array<CostRow & { family?: string }>;
  total: number;
}

function finding(rows: Array<CostRow & { family?: string }>): UsageFinding {
  const kept = rows.filter((row) => row.amount > 0);
  return { rows: kept, total: kept.reduce((sum, row) => sum + row.amount, 0) };
}

/** Rows grouped by provider, service, account and usage type that name a previous-generation family. */
export function previousGenerationRows(rows: ReadonlyArray<CostRow>): UsageFinding {
  return finding(
    rows.flatMap((row) => {
      const family = previousGenerationFamily(rowDimension(row, 'cloud_provider'), rowDimension(row, 'usage_type'));
      return family ? [{ ...row, family }] : [];
    }),
  );
}

/** Rows of compute billed at on-demand rates. */
export function onDemandRows(rows: ReadonlyArray<CostRow>): UsageFinding {
  return finding(rows.filter((row) => isOnDemandUsage(rowDimension(row, 'cloud_provider'), rowDimension(row, 'usage_type'))));
}
