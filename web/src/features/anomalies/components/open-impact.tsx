import { Typography } from '@mui/material';
import type { AnomalyList } from '../types';
import { money } from '../utils/labels';

/**
 * "3 open anomalies, +$1,200.00 and +€80.00 above expected": the open count and the impact
 * summed by the server per currency (amounts in different currencies are never added).
 */
export function openImpactText(count: number, impact: AnomalyList['openImpact']): string {
  const runs = count === 1 ? '1 open anomaly' : `${count} open anomalies`;
  const amounts = impact.filter((item) => item.amount !== 0).map((item) => `+${money(item.amount, item.currency)}`);
  return amounts.length === 0 ? runs : `${runs}, ${amounts.join(' and ')} above expected`;
}

export function OpenImpact({ count, impact }: { count: number; impact: AnomalyList['openImpact'] }) {
  return (
    <Typography variant="body2" color={count > 0 ? 'error.main' : 'text.secondary'} data-testid="open-impact">
      {openImpactText(count, impact)}
    </Typography>
  );
}
