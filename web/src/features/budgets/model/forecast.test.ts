import { forecastLines, ordinal, periodDay } from './forecast';

describe('ordinal', () => {
  it('writes the English ordinal of a day of the month', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 24, 30, 31].map(ordinal)).toEqual([
      '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '24th', '30th', '31st',
    ]);
    expect(ordinal(111)).toBe('111th');
  });

  it('reads the day of the month of a YYYY-MM-DD day, with the month outside a Monthly period', () => {
    expect(periodDay('2026-11-23', 'Monthly')).toBe('23rd');
    expect(periodDay('2026-12-01', 'Monthly')).toBe('1st');
    expect(periodDay('2026-12-23', 'Quarterly')).toBe('23rd of December');
    expect(periodDay('2026-02-02', 'Yearly')).toBe('2nd of February');
  });
});

describe('forecastLines', () => {
  const forecast = { amount: 5310.4, low: 5000, high: 5600, exceedsOn: null, exceedsOnForecast: false };

  it('is null without a forecast', () => {
    expect(forecastLines({ forecast: null, currency: 'USD', period: 'Monthly' })).toBeNull();
  });

  it('says the forecast in the budget currency, without an exceedance day when it stays within', () => {
    expect(forecastLines({ forecast, currency: 'USD', period: 'Monthly' })).toEqual({ forecast: 'Forecast: $5,310', exceeds: null });
    expect(forecastLines({ forecast, currency: 'EUR', period: 'Monthly' })?.forecast).toBe('Forecast: €5,310');
  });

  it('says by which day the spend is forecast to exceed the amount', () => {
    expect(forecastLines({ forecast: { ...forecast, exceedsOn: '2026-11-23', exceedsOnForecast: true }, currency: 'USD', period: 'Monthly' })?.exceeds).toBe(
      'Forecast to exceed 100 % by the 23rd',
    );
    expect(forecastLines({ forecast: { ...forecast, exceedsOn: '2026-12-23', exceedsOnForecast: true }, currency: 'USD', period: 'Quarterly' })?.exceeds).toBe(
      'Forecast to exceed 100 % by the 23rd of December',
    );
  });

  it('says on which day it was exceeded when that day is past', () => {
    expect(forecastLines({ forecast: { ...forecast, exceedsOn: '2026-11-12', exceedsOnForecast: false }, currency: 'USD', period: 'Monthly' })?.exceeds).toBe(
      'Exceeded 100 % on the 12th',
    );
  });
});
