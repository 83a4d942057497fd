import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { formatDateUtc } from '@/lib/dates';
import { formatUsd } from '../../model/format';
import { barColor } from '../../model/health';
import type { Budget } from '../../model/types';
import { DetailPanel } from './detail-panel';
import { PROGRESS_TICKS, alertMarkers, overBudgetAmount, progressFill } from './progress-markers';

const BAR_HEIGHT = 12;

/**
 * Something drawn at a point of the bar: a mark exactly at `percent` on the bar's side, and a
 * label on the far side that slides from left-aligned at 0 to right-aligned at 100 so that the
 * end labels stay inside the panel.
 */
function MarkerAt({ percent, barSide, mark, label }: { percent: number; barSide: 'top' | 'bottom'; mark: ReactNode; label: ReactNode }) {
  const labelSide = barSide === 'top' ? 'bottom' : 'top';
  return (
    // The position is an inline style: one value per marker, not worth a generated class each.
    <Box role="listitem" style={{ left: `${percent}%` }} sx={{ position: 'absolute', top: 0, bottom: 0 }}>
      <Box sx={{ position: 'absolute', [barSide]: 0, left: 0, transform: 'translateX(-50%)', display: 'flex' }}>{mark}</Box>
      <Typography
        variant="caption"
        sx={{ position: 'absolute', [labelSide]: 0, left: 0, transform: `translateX(-${percent}%)`, whiteSpace: 'nowrap', lineHeight: 1.4 }}
      >
        {label}
      </Typography>
    </Box>
  );
}

const alertMark = (
  <Box
    sx={{
      width: 0,
      height: 0,
      borderLeft: '5px solid transparent',
      borderRight: '5px solid transparent',
      borderTop: '7px solid',
      borderTopColor: 'warning.main',
    }}
  />
);

const tickMark = <Box sx={{ width: '1px', height: 6, bgcolor: 'text.disabled' }} />;

function daysRemainingText(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'} remaining`;
}

/** Spec 2 §2: the Budget Progress bar with 25/50/75/100 ticks, alert markers and the over-budget text. */
export function BudgetProgress({ budget }: { budget: Budget }) {
  const percent = budget.percentUsed;
  const spent = budget.currentSpent;
  const over = overBudgetAmount(spent, budget.amount);
  const color = barColor(budget.status, spent);
  const markers = alertMarkers(budget);

  return (
    <DetailPanel title="Budget Progress">
      <Box>
        {markers.length > 0 ? (
          <Box role="list" aria-label="Alert markers" sx={{ position: 'relative', height: 28 }}>
            {markers.map((marker, index) => (
              <MarkerAt
                key={`${marker.label}-${index}`}
                percent={marker.percent}
                barSide="bottom"
                mark={alertMark}
                label={<Box component="span" sx={{ color: 'warning.dark', fontWeight: 600 }}>{marker.label}</Box>}
              />
            ))}
          </Box>
        ) : null}
        <LinearProgress
          variant="determinate"
          value={progressFill(percent)}
          color={color}
          aria-label="Budget Progress"
          sx={{
            height: BAR_HEIGHT,
            borderRadius: BAR_HEIGHT / 2,
            ...(color === 'inherit' ? { color: 'grey.400' } : {}),
          }}
        />
        <Box role="list" aria-label="Progress ticks" sx={{ position: 'relative', height: 28 }}>
          {PROGRESS_TICKS.map((tick) => (
            <MarkerAt key={tick} percent={tick} barSide="top" mark={tickMark} label={`${tick}%`} />
          ))}
        </Box>
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} justifyContent="space-between">
        <Typography>
          {formatUsd(spent)} of {formatUsd(budget.amount)} spent
        </Typography>
        {over > 0 ? (
          <Typography color="error" sx={{ fontWeight: 600 }}>
            {formatUsd(over)} over budget
          </Typography>
        ) : (
          <Typography color="text.secondary">{formatUsd(budget.amount - spent)} remaining</Typography>
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {budget.period} budget · {formatDateUtc(budget.periodStart)} to {formatDateUtc(budget.periodEnd)} ·{' '}
        {daysRemainingText(budget.daysRemaining)}
      </Typography>
    </DetailPanel>
  );
}
