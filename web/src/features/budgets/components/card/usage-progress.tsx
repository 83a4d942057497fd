import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import { formatPercent } from '../../model/format';
import { barColor } from '../../model/health';
import type { Budget } from '../../model/types';
import { milestonePercents, spendTrend } from './card-rules';

/**
 * Percent used with the trend against the previous period, and the bar with alert milestones;
 * the percentage and its colour are the server's (`percentUsed`, `status`).
 */
export function UsageProgress({ budget }: { budget: Budget }) {
  const percent = budget.percentUsed;
  const trend = spendTrend(budget.currentSpent, budget.previousSpent);
  const milestones = milestonePercents(budget.alerts);
  return (
    <Box>
      <Stack direction="row" alignItems="baseline" spacing={1}>
        <Typography variant="h5" component="p" aria-label="Percentage used">
          {formatPercent(percent)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          used
        </Typography>
        {trend && trend.direction !== 'flat' ? <Trend direction={trend.direction} change={trend.changePercent} /> : null}
      </Stack>
      <Box sx={{ position: 'relative', my: 1 }}>
        <LinearProgress
          variant="determinate"
          value={Math.min(percent, 100)}
          color={barColor(budget.status)}
          aria-label="Budget used"
          aria-valuetext={formatPercent(percent)}
          sx={{ height: 8, borderRadius: 4 }}
        />
        {milestones.map((milestone) => (
          <Box
            key={milestone}
            data-testid="alert-milestone"
            title={`Alert at ${milestone}%`}
            sx={{
              position: 'absolute',
              top: -3,
              left: `calc(${milestone}% - 1px)`,
              width: 2,
              height: 14,
              bgcolor: 'text.primary',
              opacity: 0.6,
            }}
          />
        ))}
      </Box>
    </Box>
  );
}

function Trend({ direction, change }: { direction: 'up' | 'down'; change: number }) {
  // More spend than last period is the bad direction for a budget.
  const color = direction === 'up' ? 'error.main' : 'success.main';
  const Icon = direction === 'up' ? ArrowUpwardIcon : ArrowDownwardIcon;
  const text = `${formatPercent(Math.abs(change))} vs last period`;
  return (
    <Stack
      direction="row"
      alignItems="center"
      spacing={0.25}
      sx={{ color, ml: 'auto' }}
      aria-label={`${direction === 'up' ? 'Up' : 'Down'} ${text}`}
    >
      <Icon sx={{ fontSize: 16 }} />
      <Typography variant="caption">{text}</Typography>
    </Stack>
  );
}
