import { forecastWindow, monthForecast } from './forecast';

describe('forecastWindow', () => {
  it('takes the 7 days before today and counts the days after today to the month end (UTC)', () => {
    expect(forecastWindow(new Date('2026-11-23T15:00:00Z'))).toEqual({ start: '2026-11-16', end: '2026-11-22', daysLeft: 7 });
  });

  it('reaches into the previous month early in a month', () => {
    expect(forecastWindow(new Date('2026-03-02T00:30:00Z'))).toEqual({ start: '2026-02-23', end: '2026-03-01', daysLeft: 29 });
  });

  it('uses the UTC date, not the local one', () => {
    expect(forecastWindow(new Date('2026-11-30T23:59:59.999Z')).daysLeft).toBe(0);
    expect(forecastWindow(new Date('2026-12-01T00:00:00Z'))).toEqual({ start: '2026-11-24', end: '2026-11-30', daysLeft: 30 });
  });

  it('knows leap years', () => {
    expect(forecastWindow(new Date('2028-02-10T12:00:00Z')).daysLeft).toBe(19);
  });
});

describe('monthForecast', () => {
  it('adds the average of the last 7 complete days for each day left', () => {
    expect(monthForecast(1000, 700, 7)).toEqual({ monthToDate: 1000, averageDaily: 100, daysLeft: 7, forecast: 1700 });
  });

  it('is the month-to-date spend on the last day of the month', () => {
    expect(monthForecast(1234.5, 350, 0).forecast).toBe(1234.5);
  });

  it('keeps credits (negative days) in the average', () => {
    expect(monthForecast(100, -70, 3).forecast).toBe(70);
  });
});
