/** Services whose spend grew more than this percentage against the period before. */
export const GROWTH_THRESHOLD_PERCENT = 25;

export interface ServiceGrowth {
  service: string;
  previous: number;
  current: number;
  /** Percent change; null when the previous spend was zero or less (new spend). */
  percent: number | null;
}

/**
 * The services that grew more than 25 % (docs/WEB-COST.md "Decided details"): a service with
 * no positive spend before and positive spend now counts as new spend. Largest increase first.
 */
export function servicesGrowing(
  current: ReadonlyArray<{ name: string; amount: number }>,
  previous: ReadonlyArray<{ name: string; amount: number }>,
  thresholdPercent = GROWTH_THRESHOLD_PERCENT,
): ServiceGrowth[] {
  const before = new Map<string, number>();
  for (const row of previous) before.set(row.name, (before.get(row.name) ?? 0) + row.amount);
  const now = new Map<string, number>();
  for (const row of current) now.set(row.name, (now.get(row.name) ?? 0) + row.amount);

  const grown: ServiceGrowth[] = [];
  for (const [service, amount] of now) {
    const prior = before.get(service) ?? 0;
    if (prior > 0) {
      const percent = ((amount - prior) / prior) * 100;
      if (percent > thresholdPercent) grown.push({ service, previous: prior, current: amount, percent });
    } else if (amount > 0) {
      grown.push({ service, previous: prior, current: amount, percent: null });
    }
  }
  return grown.sort((a, b) => b.current - b.previous - (a.current - a.previous));
}
