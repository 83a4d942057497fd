import { Box, Typography, useTheme } from '@mui/material';
import type { ResourceTrendPoint } from '@/components/inventory';

const WIDTH = 640;
const HEIGHT = 160;
const PAD = 8;

const DAY_MS = 86_400_000;

/**
 * Every day from `startDate` to `endDate` (YYYY-MM-DD, UTC), with the server's point for the
 * day or none live: `POST /v1/resource/trend` leaves out days with no live resource.
 */
export function everyDay(points: readonly ResourceTrendPoint[], startDate: string, endDate: string): ResourceTrendPoint[] {
  const byDate = new Map(points.map((point) => [point.date, point]));
  const first = Date.parse(`${startDate}T00:00:00Z`);
  const last = Date.parse(`${endDate}T00:00:00Z`);
  if (Number.isNaN(first) || Number.isNaN(last) || first > last) return [...points];
  const days: ResourceTrendPoint[] = [];
  for (let day = first; day <= last; day += DAY_MS) {
    const date = new Date(day).toISOString().slice(0, 10);
    days.push(byDate.get(date) ?? { date, live: 0, by_type: {} });
  }
  return days;
}

/**
 * Live resources at the end of each day of the window: a line over every day, days the server
 * left out at zero (no chart library needed).
 */
export function TrendChart({ points: answer, startDate, endDate }: { points: readonly ResourceTrendPoint[]; startDate: string; endDate: string }) {
  const theme = useTheme();
  const points = everyDay(answer, startDate, endDate);
  if (answer.length === 0 || points.length === 0) {
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
