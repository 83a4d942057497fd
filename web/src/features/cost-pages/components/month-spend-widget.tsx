import { Divider, Stack } from '@mui/material';
import { CurrencyNotice } from '@/components/cost';
import { formatCurrency, formatDayLabel, formatRangeLabel, resolveTimeRange, useCostAggr } from '@/lib/cost';
import { totalRequest } from '../api/requests';
import { forecastWindow, monthForecast } from '../utils/forecast';
import { CostWidget } from './cost-widget';
import { Figure } from './figure';

/**
 * Month-to-date spend, the forecast to the month end with the figures it comes from, and last
 * month's total (UTC, every charge type).
 */
export function MonthSpendWidget({ now }: { now: Date }) {
  const thisMonth = resolveTimeRange('thisMonth', undefined, now);
  const lastMonth = resolveTimeRange('lastMonth', undefined, now);
  const sevenDays = forecastWindow(now);
  const monthToDate = useCostAggr(totalRequest(thisMonth, { interval: 'daily' }));
  const previous = useCostAggr(totalRequest(lastMonth));
  const lastSeven = useCostAggr(totalRequest(resolveTimeRange('custom', { startDate: sevenDays.start, endDate: sevenDays.end }, now)));

  return (
    <CostWidget
      title="This month"
      subtitle={formatRangeLabel(thisMonth)}
      queries={[monthToDate, previous, lastSeven]}
      select={() => ({
        forecast: monthForecast(monthToDate.data!.summary.accrued_cost, lastSeven.data!.summary.accrued_cost, sevenDays.daysLeft),
        lastMonth: previous.data!.summary.accrued_cost,
        answer: monthToDate.data!,
        lastMonthCurrency: previous.data!.currency,
        hasData: monthToDate.data!.data.length > 0 || previous.data!.data.length > 0,
      })}
      isEmpty={(d) => !d.hasData}
    >
      {({ forecast, lastMonth: lastMonthTotal, lastMonthCurrency, answer }) => (
        <>
          <CurrencyNotice answer={answer} />
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} divider={<Divider orientation="vertical" flexItem />}>
            <Figure
              label="Month-to-date spend"
              value={formatCurrency(forecast.monthToDate, { currency: answer.currency })}
              detail={formatRangeLabel(thisMonth)}
            />
            <Figure
              label="Forecast to month end"
              value={formatCurrency(forecast.forecast, { currency: answer.currency })}
              detail={
                <>
                  {formatCurrency(forecast.monthToDate, { currency: answer.currency })} so far +{' '}
                  {formatCurrency(forecast.averageDaily, { currency: answer.currency })} a day (average of{' '}
                  {formatDayLabel(sevenDays.start)} – {formatDayLabel(sevenDays.end)}) × {forecast.daysLeft}{' '}
                  {forecast.daysLeft === 1 ? 'day' : 'days'} left
                </>
              }
            />
            <Figure
              label="Last month"
              value={formatCurrency(lastMonthTotal, { currency: lastMonthCurrency })}
              detail={formatRangeLabel(lastMonth)}
            />
          </Stack>
        </>
      )}
    </CostWidget>
  );
}
