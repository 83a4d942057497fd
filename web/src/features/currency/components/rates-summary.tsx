import { Typography } from '@mui/material';
import { formatDateUtc } from '@/lib/dates';
import type { RatesSummary as Summary } from '../types';

const count = new Intl.NumberFormat('en-US');

/** "730 rates from 1 January 2026 to 31 December 2026 · Pairs: GBP→USD, USD→EUR". */
export function RatesSummary({ rates }: { rates: Summary }) {
  if (rates.count === 0) return <Typography color="text.secondary">No exchange rates uploaded.</Typography>;
  const span =
    rates.firstDate && rates.lastDate
      ? rates.firstDate === rates.lastDate
        ? ` on ${formatDateUtc(rates.firstDate)}`
        : ` from ${formatDateUtc(rates.firstDate)} to ${formatDateUtc(rates.lastDate)}`
      : '';
  return (
    <div>
      <Typography>
        {count.format(rates.count)} {rates.count === 1 ? 'rate' : 'rates'}
        {span}
      </Typography>
      {rates.pairs.length > 0 ? (
        <Typography variant="body2" color="text.secondary">
          Pairs: {rates.pairs.join(', ')}
        </Typography>
      ) : null}
    </div>
  );
}
