/**
 * The Spending Trend's data (spec 2 §2 "Spending Trend panel", §4 "Spending trend", §9): the daily
 * history items turned into cumulative, daily, weekly or monthly points, the budget line, the
 * alert markers and the current-period band. Every date is a UTC day written YYYY-MM-DD.
 */
import { parseDateString, toDateString } from '@/lib/cost/time-range';
import { alertLabel, isForecasted, type Threshold } from './alerts';
import type { AlertBasis, BudgetHistoryItem } from './types';

export type TrendDataType = 'cumulative' | 'daily' | 'weekly' | 'monthly';

export const TREND_DATA_TYPES: ReadonlyArray<{ value: TrendDataType; label: string }> = [
  { value: 'cumulative', label: 'Cumulative' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
];

/** One point of the chart: the days it covers (both included) and the spend shown for it. */
export interface TrendPoint {
  startDate: string;
  endDate: string;
  spent: number;
}

/** The history's answer, as far as the trend reads it. */
export type TrendHistoryItem = Pick<BudgetHistoryItem, 'date' | 'amountSpent'>;

function day(value: string): Date {
  const date = parseDateString(value);
  if (!date) throw new Error(`Not a YYYY-MM-DD day: ${value}`);
  return date;
}

/**
 * The first day of the budget period holding `date`: the calendar month, quarter or year (UTC).
 * An unknown period is read as Monthly, the default period (§3).
 */
export function budgetPeriodStart(date: string, period: string): string {
  const current = day(date);
  const year = current.getUTCFullYear();
  const month = current.getUTCMonth();
  if (period === 'Yearly') return toDateString(new Date(Date.UTC(year, 0, 1)));
  if (period === 'Quarterly') return toDateString(new Date(Date.UTC(year, Math.floor(month / 3) * 3, 1)));
  return toDateString(new Date(Date.UTC(year, month, 1)));
}

/** The Sunday that starts the week holding `date` (§4: weeks start on Sunday). */
export function weekStart(date: string): string {
  const current = day(date);
  return toDateString(new Date(current.getTime() - current.getUTCDay() * 86_400_000));
}

/**
 * Consecutive items sharing a key become one point: it starts on its first item's day, ends on
 * its last item's day and sums their spend. The history has one item per day, sorted by date.
 */
function bucketPoints(items: ReadonlyArray<TrendHistoryItem>, keyOf: (date: string) => string): TrendPoint[] {
  const points: TrendPoint[] = [];
  let lastKey: string | null = null;
  for (const item of items) {
    const key = keyOf(item.date);
    const open = points[points.length - 1];
    if (open && key === lastKey) {
      open.endDate = item.date;
      open.spent += item.amountSpent;
    } else {
      points.push({ startDate: item.date, endDate: item.date, spent: item.amountSpent });
    }
    lastKey = key;
  }
  return points;
}

export function dailyPoints(items: ReadonlyArray<TrendHistoryItem>): TrendPoint[] {
  return items.map((item) => ({ startDate: item.date, endDate: item.date, spent: item.amountSpent }));
}

/**
 * Sunday-to-Saturday weeks (§4), clipped to the selected range and to the budget's period: inside
 * a Monthly budget a week that spans two months is split at the first of the month, so no point
 * mixes two budget periods (quarters and years are clipped the same way).
 */
export function weeklyPoints(items: ReadonlyArray<TrendHistoryItem>, period: string): TrendPoint[] {
  return bucketPoints(items, (date) => `${weekStart(date)}|${budgetPeriodStart(date, period)}`);
}

/** Calendar months, clipped to the selected range. */
export function monthlyPoints(items: ReadonlyArray<TrendHistoryItem>): TrendPoint[] {
  return bucketPoints(items, (date) => date.slice(0, 7));
}

/** Daily points holding the running total of the spend, which starts again at each budget period's first day. */
export function cumulativePoints(items: ReadonlyArray<TrendHistoryItem>, period: string): TrendPoint[] {
  let periodStart: string | null = null;
  let total = 0;
  return items.map((item) => {
    const start = budgetPeriodStart(item.date, period);
    if (start !== periodStart) {
      periodStart = start;
      total = 0;
    }
    total += item.amountSpent;
    return { startDate: item.date, endDate: item.date, spent: total };
  });
}

export function trendPoints(items: ReadonlyArray<TrendHistoryItem>, dataType: TrendDataType, period: string): TrendPoint[] {
  switch (dataType) {
    case 'cumulative':
      return cumulativePoints(items, period);
    case 'weekly':
      return weeklyPoints(items, period);
    case 'monthly':
      return monthlyPoints(items);
    default:
      return dailyPoints(items);
  }
}

/** True when there is nothing to draw: no day, or no spend on any day. */
export function hasNoSpending(items: ReadonlyArray<TrendHistoryItem>): boolean {
  return items.every((item) => item.amountSpent === 0);
}

// §9 "Days per period" and "weeks per …": how many days, weeks and months one budget period holds.
const DAYS_PER_PERIOD: Record<string, number> = { Weekly: 7, Monthly: 30, Quarterly: 90, Yearly: 365 };
const WEEKS_PER_PERIOD: Record<string, number> = { Weekly: 1, Monthly: 4.33, Quarterly: 13, Yearly: 52 };
const MONTHS_PER_PERIOD: Record<string, number> = { Weekly: 1 / 4.33, Monthly: 1, Quarterly: 3, Yearly: 12 };

/**
 * The height of the dashed Budget line. Cumulative points are period-to-date totals, so they meet
 * the whole amount. A daily, weekly or monthly point holds one day, week or month of spend, so it
 * is compared with the amount spread over the period by the §9 days/weeks per period (a $3,000
 * Monthly budget draws its line at $100 on the Daily chart); drawing the whole amount there would
 * flatten every bar. 0 when the budget has no amount (then no line is drawn).
 */
export function budgetLineAmount(amount: number, period: string, dataType: TrendDataType): number {
  if (!(amount > 0)) return 0;
  const known = period in DAYS_PER_PERIOD ? period : 'Monthly';
  switch (dataType) {
    case 'daily':
      return amount / DAYS_PER_PERIOD[known];
    case 'weekly':
      return amount / WEEKS_PER_PERIOD[known];
    case 'monthly':
      return amount / MONTHS_PER_PERIOD[known];
    default:
      return amount;
  }
}

/** A threshold in dollars: a percentage of the amount, or the absolute value. */
export function alertAmount(alert: Threshold, amount: number): number {
  return alert.thresholdType === 'Percentage' ? (amount * alert.thresholdValue) / 100 : alert.thresholdValue;
}

export interface AlertMarker {
  /** '75%' or '$4,500'. */
  label: string;
  /** The day the running total first reached the threshold in its period. */
  date: string;
  /** The threshold in dollars (the triangle's height). */
  value: number;
}

/**
 * Alert triangles for Cumulative points only: thresholds are fractions of the whole period's
 * amount, which only the period-to-date running total can be compared with (a day's or a week's
 * spend cannot). Each threshold gets a triangle, at its own height, on the day the running total
 * first reached it in each budget period shown; thresholds not reached are not drawn (the
 * Alerts panel tells how far away they are), nor are Forecasted alerts, which compare the
 * forecast total with the threshold rather than the spend.
 */
export function alertMarkers(
  points: ReadonlyArray<TrendPoint>,
  alerts: ReadonlyArray<Threshold & { basis?: AlertBasis | null }>,
  amount: number,
  period: string,
): AlertMarker[] {
  const markers: AlertMarker[] = [];
  // A Forecasted alert is about the forecast total, not the day the spend got there.
  for (const alert of alerts.filter((candidate) => !isForecasted(candidate))) {
    const value = alertAmount(alert, amount);
    if (!(value > 0)) continue;
    const markedPeriods = new Set<string>();
    for (const point of points) {
      const periodStart = budgetPeriodStart(point.startDate, period);
      if (point.spent >= value && !markedPeriods.has(periodStart)) {
        markedPeriods.add(periodStart);
        markers.push({ label: alertLabel(alert), date: point.startDate, value });
      }
    }
  }
  return markers;
}

/**
 * The first and last points that overlap the budget's current period (periodStart..periodEnd,
 * both included), for the highlighted band; null when no point does.
 */
export function currentPeriodBand(
  points: ReadonlyArray<TrendPoint>,
  periodStart: string | undefined,
  periodEnd: string | undefined,
): { from: TrendPoint; to: TrendPoint } | null {
  if (!periodStart || !periodEnd) return null;
  const inside = points.filter((point) => point.endDate >= periodStart && point.startDate <= periodEnd);
  if (inside.length === 0) return null;
  return { from: inside[0], to: inside[inside.length - 1] };
}

/** Drops binary floating-point noise (0.1 + 0.2) from a sum before it is written out. */
function tidy(value: number): number {
  return Number(value.toFixed(6));
}

/**
 * The CSV of the chart: one row per point with its day (or first and last day for weeks and
 * months), the spend and, when there is a budget line, its height.
 */
export function trendCsvTable(
  points: ReadonlyArray<TrendPoint>,
  dataType: TrendDataType,
  budgetLine: number,
): { header: string[]; rows: Array<Array<string | number>> } {
  const spansDays = dataType === 'weekly' || dataType === 'monthly';
  const header = [...(spansDays ? ['Start Date', 'End Date'] : ['Date']), 'Spending', ...(budgetLine > 0 ? ['Budget'] : [])];
  const rows = points.map((point) => [
    ...(spansDays ? [point.startDate, point.endDate] : [point.startDate]),
    tidy(point.spent),
    ...(budgetLine > 0 ? [tidy(budgetLine)] : []),
  ]);
  return { header, rows };
}

/** The dashed Forecast line of the cumulative chart: from the last point to the period's end. */
export interface ForecastContinuation {
  /** The days after the last point up to the period's last day, added to the x axis. */
  days: string[];
  /** The running total at the last point, where the line starts. */
  from: number;
  /** The server's forecast total of the period, where the line ends. */
  to: number;
}

/**
 * The forecast drawn on as a continuation of cumulative points: only when the last point is a
 * day of the current period before its last day (else the shown series is not the one the
 * forecast continues), null otherwise or without a forecast.
 */
export function forecastContinuation(
  points: ReadonlyArray<TrendPoint>,
  periodStart: string,
  periodEnd: string,
  forecastAmount: number | null | undefined,
): ForecastContinuation | null {
  const last = points[points.length - 1];
  if (forecastAmount === null || forecastAmount === undefined || !last) return null;
  if (last.startDate < periodStart || last.startDate >= periodEnd) return null;
  const end = day(periodEnd).getTime();
  const days: string[] = [];
  for (let time = day(last.startDate).getTime() + 86_400_000; time <= end; time += 86_400_000) {
    days.push(toDateString(new Date(time)));
  }
  return { days, from: last.spent, to: forecastAmount };
}
