import { Box, Typography, useTheme } from '@mui/material';
import type { ResourceTrendPoint } from '@/components/inventory';

const WIDTH = 640;
const HEIGHT = 160;
const PAD = 8;

/** Live resources at the end of each day: a line over the window (no chart library needed). */
export function TrendChart({ points }: { points: readonly ResourceTrendPoint[] }) {
  const theme = useTheme();
  if (points.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No resources discovered in this period
      </Typography>
    );
  }
  const max = Math.max(1, ...points.map((point) => point.live));
  const step = points.length > 1 ? (WIDTH - 2 * PAD) / (points.length - 1) : 0;
  const coordinates = points.map((point, index) => {
    const x = PAD + index * step;
    const y = HEIGHT - PAD - (point.live / max) * (HEIGHT - 2 * PAD);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  const first = points[0];
  const last = points[points.length - 1];
  const label = `Live resources from ${first.date} to ${last.date}: ${first.live} to ${last.live}`;
  return (
    <Box>
      <Box component="svg" role="img" aria-label={label} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} sx={{ width: '100%', height: HEIGHT }}>
        <polyline fill="none" stroke={theme.palette.primary.main} strokeWidth={2} points={coordinates.join(' ')} />
        {points.length === 1 ? <circle cx={PAD} cy={coordinates[0].split(',')[1]} r={3} fill={theme.palette.primary.main} /> : null}
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
        <Typography variant="caption" color="text.secondary">
          {first.date}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {last.date}: {last.live} live (peak {max})
        </Typography>
      </Box>
    </Box>
  );
}
