import { formatShare } from '@/lib/cost';

/** "42.5%": an amount's share of a total (1 decimal, §9); "—" when the total is not positive. */
export function shareOf(amount: number, total: number): string {
  return total > 0 ? formatShare((amount / total) * 100) : '—';
}
