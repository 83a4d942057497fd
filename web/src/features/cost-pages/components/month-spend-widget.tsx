import { Divider, Stack } from '@mui/material';
import { CurrencyNotice } from '@/components/cost';
import { formatCurrency, formatRangeLabel, resolveTimeRange, useCostAggr } from '@/lib/cost';
import { totalRequest } from '../api/requests';
import { CostWidget } from './cost-widget';
import { Figure } from './figure';
import { MonthForecastFigures } from './month-forecast-widget';

/**
 * Month-to-date spend, beside it the server's forecast to the month end with its 80 % interval,
 * and last month's total (UTC, every charge type).
 */
export function MonthSpendWidget({ now }: { now: Date }) {
  const thisMonth = resolveTimeRange('thisMonth', undefined, now);
  const lastMonth = resolveTimeRange('lastMonth', undefined, now);
  const monthToDate = useCostAggr(totalRequest(thisMonth, { interval: 'daily' }));
  const previous = useCostAggr(totalRequest(lastMonth));

  return (
    <CostWidget
      title="This month"
      subtitle={formatRangeLabel(thisMonth)}
      queries={[monthToDate, previous]}
      select={() => ({
        monthToDate: monthToDate.data!.summary.accrued_cost,
        lastMonth: previous.data!.summary.accrued_cost,
        answer: monthToDate.data!,
        lastMonthCurrency: previous.data!.currency,
        hasData: monthToDate.data!.data.length > 0 || previous.data!.data.length > 0,
      })}
      isEmpty={(d) => !d.hasData}
    >
      {({ monthToDate: monthToDateTotal, lastMonth: lastMonthTotal, lastMonthCurrency, answer }) => (
        <>
          <CurrencyNotice answer={answer} />
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} divider={<Divider orientation="vertical" flexItem />}>
            <Figure
              label="Month-to-date spend"
              value={formatCurrency(monthToDateTotal, { currency: answer.currency })}
              detail={formatRangeLabel(thisMonth)}
            />
            <MonthForecastFigures />
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
