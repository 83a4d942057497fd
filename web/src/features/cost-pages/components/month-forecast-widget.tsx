import { Box, CircularProgress, Stack, Typography } from '@mui/material';
import { CostErrorAlert } from '@/components/cost';
import { COST_FETCH_FAILED_MESSAGE, formatCurrency, formatDayLabel } from '@/lib/cost';
import { useForecast, type Forecast, type ForecastPeriod, type ForecastResponse } from '../api/get-forecast';
import { Figure } from './figure';

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });

/** 'November', 'Q4 2026' or '2026': the period of a forecast answer, read from its first day. */
export function forecastPeriodName(period: ForecastPeriod, start: string): string {
  const first = new Date(`${start}T00:00:00Z`);
  if (Number.isNaN(first.getTime())) return start;
  if (period === 'month') return monthName.format(first);
  if (period === 'quarter') return `Q${Math.floor(first.getUTCMonth() / 3) + 1} ${first.getUTCFullYear()}`;
  return String(first.getUTCFullYear());
}

function rangeText(total: Forecast, currency: string): string {
  return `80 % range ${formatCurrency(total.low, { currency })} – ${formatCurrency(total.high, { currency })}`;
}

/**
 * The server's month-end forecast with its 80 % interval (GET /v1/forecast), the quarter and year
 * forecasts under it, and the server's reason when there is not enough history; shown beside
 * the month-to-date spend.
 */
export function MonthForecastFigures() {
  const month = useForecast('month');
  if (month.isError) {
    return (
      <Box role="group" aria-label="Forecast" sx={{ flex: 1 }}>
        <CostErrorAlert error={month.error} fallback={COST_FETCH_FAILED_MESSAGE} onRetry={() => void month.refetch()} />
      </Box>
    );
  }
  if (!month.data) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', px: 4 }}>
        <CircularProgress size={28} aria-label="Loading the forecast" />
      </Box>
    );
  }
  const answer = month.data;
  const label = `Forecast for ${forecastPeriodName('month', answer.start)}`;
  if (!answer.total) {
    return (
      <Box role="group" aria-label={label}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="body1" component="p" sx={{ mt: 0.5 }}>
          {answer.reason}
        </Typography>
      </Box>
    );
  }
  return (
    <Figure
      label={label}
      value={formatCurrency(answer.total.forecast, { currency: answer.currency })}
      detail={
        <Stack spacing={0.25}>
          <span>{rangeText(answer.total, answer.currency)}</span>
          {answer.asOf ? <span>Based on cost up to {formatDayLabel(answer.asOf)}</span> : null}
          <LongerForecast period="quarter" />
          <LongerForecast period="year" />
        </Stack>
      }
    />
  );
}

/** 'Forecast for Q4 2026: $9,300.00 (80 % range $8,900.00 – $9,800.00)', one line. */
function LongerForecast({ period }: { period: Exclude<ForecastPeriod, 'month'> }) {
  const query = useForecast(period);
  if (query.isError) {
    return <span>{`${period === 'quarter' ? 'Quarter' : 'Year'} forecast: ${COST_FETCH_FAILED_MESSAGE}`}</span>;
  }
  if (!query.data) return null;
  return <LongerForecastLine period={period} answer={query.data} />;
}

function LongerForecastLine({ period, answer }: { period: ForecastPeriod; answer: ForecastResponse }) {
  const label = `Forecast for ${forecastPeriodName(period, answer.start)}`;
  const total = answer.total;
  return (
    <span role="group" aria-label={label}>
      {total
        ? `${label}: ${formatCurrency(total.forecast, { currency: answer.currency })} (${rangeText(total, answer.currency)})`
        : `${label}: ${answer.reason ?? ''}`}
    </span>
  );
}
