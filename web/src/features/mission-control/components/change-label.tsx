import { Typography } from '@mui/material';
import { formatPercent } from '@/lib/cost';

/** A change on the previous period: red when spend grew, green when it fell, "New" without a previous amount. */
export function ChangeLabel({ change }: { change: number | null }) {
  if (change === null) {
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        New
      </Typography>
    );
  }
  const rounded = Math.round(change * 10) / 10;
  const color = rounded > 0 ? 'error.main' : rounded < 0 ? 'success.main' : 'text.secondary';
  return (
    <Typography component="span" variant="body2" fontWeight={600} sx={{ color }}>
      {formatPercent(change)}
    </Typography>
  );
}
