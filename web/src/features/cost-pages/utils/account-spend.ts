export interface AccountSpend {
  provider: string;
  accountId: string;
  name: string;
  amount: number;
  previous: number;
  /** Percent change against the previous period; null when that was zero. */
  change: number | null;
}

interface SpendRow {
  account?: string | null;
  account_name?: string | null;
  cloud_provider?: string | null;
  amount: number;
}

interface KnownAccount {
  provider: string;
  account_id: string;
  account_name: string;
}

const keyOf = (provider: string, accountId: string) => `${provider.toLowerCase()}/${accountId}`;

/**
 * Spend per account and provider for a period and the one before, joined with the account list
 * (its names win; accounts without spend show zero). Largest spend first, then by name.
 */
export function joinAccountSpend(current: ReadonlyArray<SpendRow>, previous: ReadonlyArray<SpendRow>, accounts: ReadonlyArray<KnownAccount>): AccountSpend[] {
  const table = new Map<string, AccountSpend>();
  const entry = (provider: string, accountId: string, name?: string | null) => {
    const key = keyOf(provider, accountId);
    let found = table.get(key);
    if (!found) {
      found = { provider: provider.toLowerCase(), accountId, name: name || accountId, amount: 0, previous: 0, change: null };
      table.set(key, found);
    }
    return found;
  };
  for (const account of accounts) entry(account.provider, account.account_id, account.account_name);
  for (const row of current) entry(row.cloud_provider ?? '', row.account ?? '', row.account_name).amount += row.amount;
  for (const row of previous) entry(row.cloud_provider ?? '', row.account ?? '', row.account_name).previous += row.amount;
  return [...table.values()]
    .map((item) => ({ ...item, change: item.previous !== 0 ? ((item.amount - item.previous) / Math.abs(item.previous)) * 100 : null }))
    .sort((a, b) => b.amount - a.amount || a.name.localeCompare(b.name));
}
