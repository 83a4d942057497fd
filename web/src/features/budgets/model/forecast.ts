/**
 * How a budget's forecast reads (docs/ANOMALIES.md "Forecast API and where it shows"): the
 * server computes the forecast and the day it reaches the amount; these only word them.
 */
import { formatUsd } from './format';
import type { Budget, BudgetPeriod } from './types';

/** '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '31st'. */
export function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });

/**
 * The day of a YYYY-MM-DD day as the alert message writes it: '23rd' in a Monthly budget's
 * period, '23rd of December' in a Quarterly or Yearly one (docs/ANOMALIES.md, "{Nth}").
 */
export function periodDay(day: string, period: BudgetPeriod | string): string {
  const nth = ordinal(Number(day.slice(8, 10)));
  if (period === 'Monthly') return nth;
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? nth : `${nth} of ${monthName.format(date)}`;
}

export interface ForecastLines {
  /** 'Forecast: $5,310'. */
  forecast: string;
  /** 'Forecast to exceed 100 % by the 23rd', 'Exceeded 100 % on the 12th' once past, or null. */
  exceeds: string | null;
}

/** The lines of a budget with a forecast; null when the server has none (not enough history). */
export function forecastLines(budget: Pick<Budget, 'forecast' | 'currency' | 'period'>): ForecastLines | null {
  const forecast = budget.forecast;
  if (!forecast) return null;
  let exceeds: string | null = null;
  if (forecast.exceedsOn) {
    const day = periodDay(forecast.exceedsOn, budget.period);
    exceeds = forecast.exceedsOnForecast ? `Forecast to exceed 100 % by the ${day}` : `Exceeded 100 % on the ${day}`;
  }
  return { forecast: `Forecast: ${formatUsd(forecast.amount, budget.currency)}`, exceeds };
}
