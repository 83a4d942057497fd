/**
 * Drill-down (docs/ANALYST-FLOW.md "Drill-down"): the grouping a click on a value of one
 * dimension moves to. One table, used by the Advanced Cost chart and table, Compare rows and
 * Mission Control's Top movers.
 */
import type { GroupKey } from './dimensions';

export type DrillDimension = Exclude<GroupKey, 'none'>;

const NEXT: Record<DrillDimension, DrillDimension | null> = {
  service: 'usage_type',
  usage_type: null,
  account: 'service',
  region: 'service',
  cloud_provider: 'account',
  cost_type: 'service',
};

/** The grouping after drilling into a value of `dimension`; null at the last level (keep the grouping). */
export function nextDrillDimension(dimension: DrillDimension): DrillDimension | null {
  return NEXT[dimension];
}
