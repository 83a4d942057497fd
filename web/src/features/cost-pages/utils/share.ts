/** "42.5%": an amount's share of a total (1 decimal, §9); "—" when the total is not positive. */
export function shareOf(amount: number, total: number): string {
  if (!(total > 0) || !Number.isFinite(amount)) return '—';
  return `${((amount / total) * 100).toFixed(1)}%`;
}
