/**
 * The month-end forecast of Basic Cost (docs/WEB-COST.md "Decided details"): month-to-date spend
 * plus the average daily spend of the last 7 complete days times the days left in the month, all
 * in UTC. "Complete days" end before today; "days left" are the days after today.
 */

export const FORECAST_WINDOW_DAYS = 7;

const DAY_MS = 86_400_000;

function utcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export interface ForecastWindow {
  /** First of the last 7 complete days (YYYY-MM-DD). */
  start: string;
  /** Yesterday (YYYY-MM-DD). */
  end: string;
  /** Days of the month after today. */
  daysLeft: number;
}

/** The 7 complete days before today and the days left in the month after today (UTC). */
export function forecastWindow(now: Date = new Date()): ForecastWindow {
  const today = utcDay(now);
  const lastOfMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0));
  return {
    start: isoDay(new Date(today.getTime() - FORECAST_WINDOW_DAYS * DAY_MS)),
    end: isoDay(new Date(today.getTime() - DAY_MS)),
    daysLeft: Math.round((lastOfMonth.getTime() - today.getTime()) / DAY_MS),
  };
}

export interface MonthForecast {
  monthToDate: number;
  /** Sum of the last 7 complete days divided by 7 (a day without cost counts as 0). */
  averageDaily: number;
  daysLeft: number;
  forecast: number;
}

export function monthForecast(monthToDate: number, lastSevenDaysTotal: number, daysLeft: number): MonthForecast {
  const averageDaily = lastSevenDaysTotal / FORECAST_WINDOW_DAYS;
  return { monthToDate, averageDaily, daysLeft, forecast: monthToDate + averageDaily * daysLeft };
}
