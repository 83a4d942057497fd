/**
 * How a budget's forecast reads (docs/ANOMALIES.md "Forecast API and where it shows"): the
 * server computes the forecast and the day it reaches the amount; these only word them.
 */
import { formatUsd } from './format';
import type { Budget } from './types';

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

/** The day of the month of a YYYY-MM-DD day, as an ordinal: '2026-11-23' → '23rd'. */
export function ordinalDayOfMonth(day: string): string {
  return ordinal(Number(day.slice(8, 10)));
}

export interface ForecastLines {
  /** 'Forecast: $5,310'. */
  forecast: string;
  /** 'Forecast to exceed 100 % by the 23rd', 'Exceeded 100 % on the 12th' once past, or null. */
  exceeds: string | null;
}

/** The lines of a budget with a forecast; null when the server has none (not enough history). */
export function forecastLines(budget: Pick<Budget, 'forecast' | 'currency'>): ForecastLines | null {
  const forecast = budget.forecast;
  if (!forecast) return null;
  let exceeds: string | null = null;
  if (forecast.exceedsOn) {
    const day = ordinalDayOfMonth(forecast.exceedsOn);
    exceeds = forecast.exceedsOnForecast ? `Forecast to exceed 100 % by the ${day}` : `Exceeded 100 % on the ${day}`;
  }
  return { forecast: `Forecast: ${formatUsd(forecast.amount, budget.currency)}`, exceeds };
}
