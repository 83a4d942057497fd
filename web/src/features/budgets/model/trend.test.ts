import { describe, expect, it } from 'vitest';
import {
  alertAmount,
  alertMarkers,
  forecastContinuation,
  budgetLineAmount,
  budgetPeriodStart,
  cumulativePoints,
  currentPeriodBand,
  dailyPoints,
  hasNoSpending,
  monthlyPoints,
  trendCsvTable,
  trendPoints,
  weekStart,
  weeklyPoints,
  type TrendHistoryItem,
} from './trend';

/** One item per day from `first` for `days` days, spending 1, 2, 3, … dollars. */
function history(first: string, days: number, spend: (index: number) => number = (index) => index + 1): TrendHistoryItem[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: days }, (_, index) => ({
    date: new Date(start + index * 86_400_000).toISOString().slice(0, 10),
    amountSpent: spend(index),
  }));
}

const sum = (from: number, to: number) => ((from + to) * (to - from + 1)) / 2;

describe('budgetPeriodStart', () => {
  it('is the first day of the calendar month, quarter or year (UTC)', () => {
    expect(budgetPeriodStart('2026-11-23', 'Monthly')).toBe('2026-11-01');
    expect(budgetPeriodStart('2026-11-23', 'Quarterly')).toBe('2026-10-01');
    expect(budgetPeriodStart('2026-03-31', 'Quarterly')).toBe('2026-01-01');
    expect(budgetPeriodStart('2026-11-23', 'Yearly')).toBe('2026-01-01');
  });

  it('reads an unknown period as Monthly', () => {
    expect(budgetPeriodStart('2026-11-23', 'Fortnightly')).toBe('2026-11-01');
  });
});

describe('weekStart', () => {
  it('is the Sunday on or before the day', () => {
    expect(weekStart('2026-11-01')).toBe('2026-11-01'); // a Sunday
    expect(weekStart('2026-11-07')).toBe('2026-11-01'); // the Saturday after
    expect(weekStart('2026-11-08')).toBe('2026-11-08');
    expect(weekStart('2026-10-01')).toBe('2026-09-27'); // across a month
    expect(weekStart('2027-01-01')).toBe('2026-12-27'); // across a year
  });
});

describe('dailyPoints', () => {
  it('makes one point per day', () => {
    expect(dailyPoints(history('2026-11-01', 2))).toEqual([
      { startDate: '2026-11-01', endDate: '2026-11-01', spent: 1 },
      { startDate: '2026-11-02', endDate: '2026-11-02', spent: 2 },
    ]);
  });
});

describe('weeklyPoints', () => {
  it('groups days into Sunday-to-Saturday weeks, the first and last clipped to the range', () => {
    // Tue 2026-11-03 … Fri 2026-11-20.
    const points = weeklyPoints(history('2026-11-03', 18), 'Yearly');
    expect(points).toEqual([
      { startDate: '2026-11-03', endDate: '2026-11-07', spent: sum(1, 5) },
      { startDate: '2026-11-08', endDate: '2026-11-14', spent: sum(6, 12) },
      { startDate: '2026-11-15', endDate: '2026-11-20', spent: sum(13, 18) },
    ]);
  });

  it('splits a week at the first of the month inside a Monthly budget', () => {
    // Mon 2026-09-28 … Mon 2026-10-12; the week of Sunday 2026-09-27 ends on Saturday 2026-10-03.
    const points = weeklyPoints(history('2026-09-28', 15), 'Monthly');
    expect(points.map((point) => [point.startDate, point.endDate, point.spent])).toEqual([
      ['2026-09-28', '2026-09-30', sum(1, 3)],
      ['2026-10-01', '2026-10-03', sum(4, 6)],
      ['2026-10-04', '2026-10-10', sum(7, 13)],
      ['2026-10-11', '2026-10-12', sum(14, 15)],
    ]);
  });

  it('keeps a week whole across a month boundary that is not a period boundary', () => {
    const points = weeklyPoints(history('2026-10-25', 14), 'Quarterly');
    expect(points.map((point) => [point.startDate, point.endDate])).toEqual([
      ['2026-10-25', '2026-10-31'],
      ['2026-11-01', '2026-11-07'],
    ]);
    const yearly = weeklyPoints(history('2026-09-28', 6), 'Yearly');
    expect(yearly.map((point) => [point.startDate, point.endDate, point.spent])).toEqual([['2026-09-28', '2026-10-03', sum(1, 6)]]);
  });

  it('splits a week at the start of a quarter inside a Quarterly budget', () => {
    const points = weeklyPoints(history('2026-09-28', 6), 'Quarterly');
    expect(points.map((point) => [point.startDate, point.endDate])).toEqual([
      ['2026-09-28', '2026-09-30'],
      ['2026-10-01', '2026-10-03'],
    ]);
  });

  it('makes nothing of no days', () => {
    expect(weeklyPoints([], 'Monthly')).toEqual([]);
  });
});

describe('monthlyPoints', () => {
  it('groups days into calendar months clipped to the range', () => {
    const points = monthlyPoints(history('2026-09-29', 34));
    expect(points.map((point) => [point.startDate, point.endDate, point.spent])).toEqual([
      ['2026-09-29', '2026-09-30', sum(1, 2)],
      ['2026-10-01', '2026-10-31', sum(3, 33)],
      ['2026-11-01', '2026-11-01', 34],
    ]);
  });
});

describe('cumulativePoints', () => {
  it('keeps a running total that starts again on the first day of each month for a Monthly budget', () => {
    const points = cumulativePoints(history('2026-09-29', 5), 'Monthly');
    expect(points.map((point) => [point.startDate, point.spent])).toEqual([
      ['2026-09-29', 1],
      ['2026-09-30', 3],
      ['2026-10-01', 3],
      ['2026-10-02', 7],
      ['2026-10-03', 12],
    ]);
    expect(points.every((point) => point.startDate === point.endDate)).toBe(true);
  });

  it('runs across months and restarts only at the quarter for a Quarterly budget', () => {
    const points = cumulativePoints(history('2026-08-30', 35, () => 10), 'Quarterly');
    const at = (date: string) => points.find((point) => point.startDate === date)?.spent;
    expect(at('2026-08-31')).toBe(20);
    expect(at('2026-09-01')).toBe(30);
    expect(at('2026-09-30')).toBe(320);
    expect(at('2026-10-01')).toBe(10);
    expect(at('2026-10-03')).toBe(30);
  });

  it('restarts on 1 January for a Yearly budget', () => {
    const points = cumulativePoints(history('2026-12-30', 4, () => 5), 'Yearly');
    expect(points.map((point) => point.spent)).toEqual([5, 10, 5, 10]);
  });
});

describe('trendPoints', () => {
  it('picks the transform of the data type', () => {
    const items = history('2026-09-29', 5);
    expect(trendPoints(items, 'daily', 'Monthly')).toEqual(dailyPoints(items));
    expect(trendPoints(items, 'weekly', 'Monthly')).toEqual(weeklyPoints(items, 'Monthly'));
    expect(trendPoints(items, 'monthly', 'Monthly')).toEqual(monthlyPoints(items));
    expect(trendPoints(items, 'cumulative', 'Monthly')).toEqual(cumulativePoints(items, 'Monthly'));
  });
});

describe('hasNoSpending', () => {
  it('is true for no days or only zero days', () => {
    expect(hasNoSpending([])).toBe(true);
    expect(hasNoSpending(history('2026-11-01', 3, () => 0))).toBe(true);
    expect(hasNoSpending(history('2026-11-01', 3, (index) => (index === 2 ? 0.01 : 0)))).toBe(false);
  });
});

describe('budgetLineAmount', () => {
  it('is the whole amount for cumulative points', () => {
    expect(budgetLineAmount(3000, 'Monthly', 'cumulative')).toBe(3000);
    expect(budgetLineAmount(9000, 'Quarterly', 'cumulative')).toBe(9000);
  });

  it('spreads the amount with the §9 days, weeks and months per period', () => {
    expect(budgetLineAmount(3000, 'Monthly', 'daily')).toBe(100);
    expect(budgetLineAmount(9000, 'Quarterly', 'daily')).toBe(100);
    expect(budgetLineAmount(36500, 'Yearly', 'daily')).toBe(100);
    expect(budgetLineAmount(433, 'Monthly', 'weekly')).toBeCloseTo(100, 10);
    expect(budgetLineAmount(1300, 'Quarterly', 'weekly')).toBe(100);
    expect(budgetLineAmount(5200, 'Yearly', 'weekly')).toBe(100);
    expect(budgetLineAmount(3000, 'Monthly', 'monthly')).toBe(3000);
    expect(budgetLineAmount(9000, 'Quarterly', 'monthly')).toBe(3000);
    expect(budgetLineAmount(12000, 'Yearly', 'monthly')).toBe(1000);
  });

  it('is 0 without an amount, so that no line is drawn', () => {
    expect(budgetLineAmount(0, 'Monthly', 'cumulative')).toBe(0);
    expect(budgetLineAmount(-5, 'Monthly', 'daily')).toBe(0);
  });
});

describe('alertAmount', () => {
  it('is a percentage of the amount or the absolute value', () => {
    expect(alertAmount({ thresholdType: 'Percentage', thresholdValue: 75 }, 4000)).toBe(3000);
    expect(alertAmount({ thresholdType: 'Absolute', thresholdValue: 4500 }, 4000)).toBe(4500);
  });
});

describe('alertMarkers', () => {
  const alerts = [
    { thresholdType: 'Percentage' as const, thresholdValue: 50 },
    { thresholdType: 'Absolute' as const, thresholdValue: 90 },
    { thresholdType: 'Percentage' as const, thresholdValue: 100 },
  ];

  it('marks the first day each period reached a threshold, at the threshold, labelled with it', () => {
    // $10 a day from 2026-10-25 to 2026-11-10, Monthly budget of $100: October ends at $70, so
    // only 50% ($50, on Oct 29) is reached there; November restarts and reaches all three.
    const points = cumulativePoints(history('2026-10-25', 17, () => 10), 'Monthly');
    expect(alertMarkers(points, alerts, 100, 'Monthly')).toEqual([
      { label: '50%', date: '2026-10-29', value: 50 },
      { label: '50%', date: '2026-11-05', value: 50 },
      { label: '$90', date: '2026-11-09', value: 90 },
      { label: '100%', date: '2026-11-10', value: 100 },
    ]);
  });

  it('draws nothing for thresholds not reached or worth nothing', () => {
    const points = cumulativePoints(history('2026-11-01', 3, () => 1), 'Monthly');
    expect(alertMarkers(points, alerts, 100, 'Monthly')).toEqual([]);
    expect(alertMarkers(points, [{ thresholdType: 'Percentage', thresholdValue: 50 }], 0, 'Monthly')).toEqual([]);
  });

  it('draws no triangle for a Forecasted alert, which the forecast total reaches rather than the spend', () => {
    const points = cumulativePoints(history('2026-11-01', 10, () => 10), 'Monthly');
    const forecasted = [
      { thresholdType: 'Percentage' as const, thresholdValue: 50, basis: 'Forecasted' as const },
      { thresholdType: 'Percentage' as const, thresholdValue: 50, basis: 'Actual' as const },
    ];
    expect(alertMarkers(points, forecasted, 100, 'Monthly')).toEqual([{ label: '50%', date: '2026-11-05', value: 50 }]);
  });
});

describe('currentPeriodBand', () => {
  it('spans the points that overlap the current period', () => {
    const daily = dailyPoints(history('2026-10-28', 10));
    expect(currentPeriodBand(daily, '2026-11-01', '2026-11-30')).toEqual({ from: daily[4], to: daily[9] });
    const weekly = weeklyPoints(history('2026-10-20', 20), 'Quarterly');
    const band = currentPeriodBand(weekly, '2026-11-01', '2026-11-30');
    expect([band?.from.startDate, band?.to.startDate]).toEqual(['2026-11-01', '2026-11-08']);
    const monthly = monthlyPoints(history('2026-10-20', 20));
    expect(currentPeriodBand(monthly, '2026-10-01', '2026-12-31')).toEqual({ from: monthly[0], to: monthly[1] });
  });

  it('is null when no point is in the period or the period is unknown', () => {
    const daily = dailyPoints(history('2026-09-01', 5));
    expect(currentPeriodBand(daily, '2026-11-01', '2026-11-30')).toBeNull();
    expect(currentPeriodBand(daily, undefined, undefined)).toBeNull();
  });
});

describe('trendCsvTable', () => {
  it('writes day, spend and budget for daily and cumulative points', () => {
    const points = cumulativePoints([{ date: '2026-11-01', amountSpent: 0.1 }, { date: '2026-11-02', amountSpent: 0.2 }], 'Monthly');
    expect(trendCsvTable(points, 'cumulative', 5000)).toEqual({
      header: ['Date', 'Spending', 'Budget'],
      rows: [
        ['2026-11-01', 0.1, 5000],
        ['2026-11-02', 0.3, 5000],
      ],
    });
  });

  it('writes first and last day for weeks and months, and no budget column without a budget', () => {
    const points = weeklyPoints(history('2026-11-03', 6), 'Monthly');
    expect(trendCsvTable(points, 'weekly', 0)).toEqual({
      header: ['Start Date', 'End Date', 'Spending'],
      rows: [
        ['2026-11-03', '2026-11-07', 15],
        ['2026-11-08', '2026-11-08', 6],
      ],
    });
  });
});

describe('forecastContinuation', () => {
  const points = cumulativePoints(history('2026-11-01', 3, () => 10), 'Monthly');

  it('runs from the last running total to the forecast over the days left in the period', () => {
    expect(forecastContinuation(points, '2026-11-01', '2026-11-06', 70)).toEqual({
      days: ['2026-11-04', '2026-11-05', '2026-11-06'],
      from: 30,
      to: 70,
    });
  });

  it('is null without a forecast, without points, or when the last point is not a day of the period before its end', () => {
    expect(forecastContinuation(points, '2026-11-01', '2026-11-30', null)).toBeNull();
    expect(forecastContinuation([], '2026-11-01', '2026-11-30', 70)).toBeNull();
    expect(forecastContinuation(points, '2026-12-01', '2026-12-31', 70)).toBeNull();
    expect(forecastContinuation(points, '2026-11-01', '2026-11-03', 70)).toBeNull();
  });
});
