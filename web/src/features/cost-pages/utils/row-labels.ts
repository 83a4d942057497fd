import { rowDimension, type CostRow } from '@/lib/cost';
import { providerLabel } from '@/lib/cost-filters';

/** "Production (111111111111)", or the id alone when the API knows no name. */
export function accountLabel(row: Partial<CostRow>): string {
  const id = row.account ?? '';
  const name = rowDimension(row, 'account');
  return name && id && name !== id ? `${name} (${id})` : name;
}

export function providerOf(row: Partial<CostRow>): string {
  return providerLabel(rowDimension(row, 'cloud_provider'));
}
