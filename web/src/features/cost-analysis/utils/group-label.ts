import { rowDimension, type CostRow, type GroupKey } from '@/lib/cost';
import { providerLabel } from '@/lib/cost-filters';

/**
 * A row's name for one dimension. Accounts show their name and their id, so that two accounts
 * with the same name stay apart; cloud providers their name (AWS, GCP, Azure) rather than the code.
 */
export function groupLabel(row: CostRow, key: GroupKey): string {
  const label = rowDimension(row as CostRow & Record<string, unknown>, key);
  if (key === 'account' && row.account && row.account_name && row.account_name !== row.account) {
    return `${row.account_name} (${row.account})`;
  }
  if (key === 'cloud_provider') return providerLabel(label);
  return label;
}
