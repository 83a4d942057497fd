/** The Spending Trend's states (spec 2 §2 "Spending Trend panel", §8), texts copied exactly. */
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import { Alert, AlertTitle, CircularProgress, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { isApiError } from '@/api/api-error';

export const SPENDING_MESSAGES = {
  noDataTitle: 'No Data Available',
  noData: 'No spending data found for the selected period.',
  loading: 'Loading chart...',
  chartErrorTitle: 'Chart Error',
  chartError: 'Unable to display chart',
  loadFailed: 'Failed to load spending data. Please try again later.',
} as const;

/** Fills the chart's place while something else is shown there. */
function ChartPlaceholder({ height, children }: { height: number; children: ReactNode }) {
  return (
    <Stack alignItems="center" justifyContent="center" spacing={1.5} sx={{ minHeight: height, textAlign: 'center', px: 2 }}>
      {children}
    </Stack>
  );
}

export function ChartLoading({ height }: { height: number }) {
  return (
    <ChartPlaceholder height={height}>
      <CircularProgress size={28} aria-hidden />
      <Typography role="status" color="text.secondary">
        {SPENDING_MESSAGES.loading}
      </Typography>
    </ChartPlaceholder>
  );
}

export function ChartNoData({ height }: { height: number }) {
  return (
    <ChartPlaceholder height={height}>
      <InsightsOutlinedIcon color="disabled" sx={{ fontSize: 40 }} />
      <Typography variant="h6" component="p">
        {SPENDING_MESSAGES.noDataTitle}
      </Typography>
      <Typography color="text.secondary">{SPENDING_MESSAGES.noData}</Typography>
    </ChartPlaceholder>
  );
}

/** The chart could not be drawn (its code failed to load, or drawing threw). */
export function ChartErrorPanel({ height }: { height: number }) {
  return (
    <ChartPlaceholder height={height}>
      <Alert severity="error" sx={{ textAlign: 'left' }}>
        <AlertTitle>{SPENDING_MESSAGES.chartErrorTitle}</AlertTitle>
        {SPENDING_MESSAGES.chartError}
      </Alert>
    </ChartPlaceholder>
  );
}

/**
 * The history call failed: a refused range (422) shows the server's §5 message, anything else
 * the §8 text.
 */
export function SpendingLoadFailed({ error }: { error: unknown }) {
  const message = isApiError(error) && error.status === 422 && error.serverMessage ? error.serverMessage : SPENDING_MESSAGES.loadFailed;
  return <Alert severity="error">{message}</Alert>;
}
