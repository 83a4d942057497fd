import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADVANCED_COST_PRESETS,
  ANALYSIS_PRESETS,
  formatRangeLabel,
  previousTimeRange,
  rangeDays,
  resolveTimeRange,
  toApiDate,
  type TimeRange,
} from './time-range';

const NOW = new Date('2026-11-23T15:30:00.000Z');

/** The first and last UTC day of a range. */
function days(range: TimeRange): [string, string] {
  return [range.start.slice(0, 10), range.end.slice(0, 10)];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('resolveTimeRange', () => {
  it('starts at 00:00:00.000 and ends at 23:59:59.999 UTC', () => {
    const range = resolveTimeRange('today', undefined, NOW);
    expect(range).toEqual({ preset: 'today', start: '2026-11-23T00:00:00.000Z', end: '2026-11-23T23:59:59.999Z' });
  });

  it.each([
    ['today', '2026-11-23', '2026-11-23'],
    ['yesterday', '2026-11-22', '2026-11-22'],
    ['last7Days', '2026-11-17', '2026-11-23'],
    ['last30Days', '2026-10-25', '2026-11-23'],
    ['last90Days', '2026-08-26', '2026-11-23'],
    ['thisWeek', '2026-11-23', '2026-11-23'],
    ['thisMonth', '2026-11-01', '2026-11-23'],
    ['lastMonth', '2026-10-01', '2026-10-31'],
    ['thisQuarter', '2026-10-01', '2026-11-23'],
    ['lastQuarter', '2026-07-01', '2026-09-30'],
    ['last_6_months', '2026-05-24', '2026-11-23'],
    ['thisYear', '2026-01-01', '2026-11-23'],
    ['year_to_date', '2026-01-01', '2026-11-23'],
    ['lastYear', '2025-01-01', '2025-12-31'],
  ])('%s on 2026-11-23 covers %s to %s', (preset, first, last) => {
    const range = resolveTimeRange(preset, undefined, NOW);
    expect(range.preset).toBe(preset);
    expect(days(range)).toEqual([first, last]);
    expect(range.start.endsWith('T00:00:00.000Z')).toBe(true);
    expect(range.end.endsWith('T23:59:59.999Z')).toBe(true);
  });

  it('gives 7, 30 and 90 days for the "last N days" presets', () => {
    expect(rangeDays(resolveTimeRange('last7Days', undefined, NOW))).toBe(7);
    expect(rangeDays(resolveTimeRange('last30Days', undefined, NOW))).toBe(30);
    expect(rangeDays(resolveTimeRange('last90Days', undefined, NOW))).toBe(90);
  });

  it('reads lastWeek as last7Days', () => {
    const range = resolveTimeRange('lastWeek', undefined, NOW);
    expect(range.preset).toBe('last7Days');
    expect(days(range)).toEqual(['2026-11-17', '2026-11-23']);
  });

  it('starts this week on Monday', () => {
    expect(days(resolveTimeRange('thisWeek', undefined, new Date('2026-11-29T23:59:59.999Z')))).toEqual(['2026-11-23', '2026-11-29']);
  });

  it('crosses the year at New Year', () => {
    const newYear = new Date('2026-01-01T00:00:00.000Z');
    expect(days(resolveTimeRange('yesterday', undefined, newYear))).toEqual(['2025-12-31', '2025-12-31']);
    expect(days(resolveTimeRange('lastMonth', undefined, newYear))).toEqual(['2025-12-01', '2025-12-31']);
    expect(days(resolveTimeRange('thisMonth', undefined, newYear))).toEqual(['2026-01-01', '2026-01-01']);
    expect(days(resolveTimeRange('thisQuarter', undefined, newYear))).toEqual(['2026-01-01', '2026-01-01']);
    expect(days(resolveTimeRange('lastQuarter', undefined, newYear))).toEqual(['2025-10-01', '2025-12-31']);
    expect(days(resolveTimeRange('thisYear', undefined, newYear))).toEqual(['2026-01-01', '2026-01-01']);
    expect(days(resolveTimeRange('lastYear', undefined, newYear))).toEqual(['2025-01-01', '2025-12-31']);
    expect(days(resolveTimeRange('last7Days', undefined, newYear))).toEqual(['2025-12-26', '2026-01-01']);
  });

  it('knows February 29 in a leap year and not in others', () => {
    const leap = new Date('2024-03-01T12:00:00.000Z');
    expect(days(resolveTimeRange('yesterday', undefined, leap))).toEqual(['2024-02-29', '2024-02-29']);
    expect(days(resolveTimeRange('lastMonth', undefined, leap))).toEqual(['2024-02-01', '2024-02-29']);
    const common = new Date('2026-03-01T12:00:00.000Z');
    expect(days(resolveTimeRange('lastMonth', undefined, common))).toEqual(['2026-02-01', '2026-02-28']);
    expect(days(resolveTimeRange('last_6_months', undefined, new Date('2024-08-31T08:00:00.000Z')))).toEqual([
      '2024-03-01',
      '2024-08-31',
    ]);
  });

  it('takes the UTC day, not the local one, at the end of a local evening', () => {
    // 23:30 in New York on November 23 is already November 24 in UTC.
    const range = resolveTimeRange('today', undefined, new Date('2026-11-23T23:30:00.000-05:00'));
    expect(days(range)).toEqual(['2026-11-24', '2026-11-24']);
  });

  it('gives the quarters of every month', () => {
    expect(days(resolveTimeRange('thisQuarter', undefined, new Date('2026-06-30T10:00:00Z')))).toEqual(['2026-04-01', '2026-06-30']);
    expect(days(resolveTimeRange('lastQuarter', undefined, new Date('2026-07-01T10:00:00Z')))).toEqual(['2026-04-01', '2026-06-30']);
    expect(days(resolveTimeRange('lastQuarter', undefined, new Date('2024-05-10T10:00:00Z')))).toEqual(['2024-01-01', '2024-03-31']);
  });

  it('falls back to thisMonth with a warning for an unknown preset', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const range = resolveTimeRange('fortnight', undefined, NOW);
    expect(range.preset).toBe('thisMonth');
    expect(days(range)).toEqual(['2026-11-01', '2026-11-23']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain('fortnight');
  });

  it('keeps the dates of a custom range', () => {
    const range = resolveTimeRange('custom', { startDate: '2026-02-03', endDate: '2026-03-04' }, NOW);
    expect(range).toEqual({
      preset: 'custom',
      startDate: '2026-02-03',
      endDate: '2026-03-04',
      start: '2026-02-03T00:00:00.000Z',
      end: '2026-03-04T23:59:59.999Z',
    });
  });

  it('takes a missing custom date from today', () => {
    const noEnd = resolveTimeRange('custom', { startDate: '2026-11-01' }, NOW);
    expect(noEnd).toMatchObject({ preset: 'custom', startDate: '2026-11-01', endDate: '2026-11-23' });
    const none = resolveTimeRange('custom', undefined, NOW);
    expect(none).toMatchObject({ preset: 'custom', startDate: '2026-11-23', endDate: '2026-11-23' });
    expect(days(none)).toEqual(['2026-11-23', '2026-11-23']);
  });

  it.each([
    ['start after end', { startDate: '2026-11-10', endDate: '2026-11-01' }],
    ['an unreadable date', { startDate: '2026-13-01', endDate: '2026-11-01' }],
    ['a day that does not exist', { startDate: '2026-02-29', endDate: '2026-03-01' }],
  ])('warns and gives today for %s', (_case, custom) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const range = resolveTimeRange('custom', custom, NOW);
    expect(range.preset).toBe('today');
    expect(days(range)).toEqual(['2026-11-23', '2026-11-23']);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('previousTimeRange', () => {
  const previous = (preset: string, now: Date, custom?: { startDate?: string; endDate?: string }) =>
    days(previousTimeRange(resolveTimeRange(preset, custom, now), now));

  it('compares this month and last month with the whole month before', () => {
    expect(previous('thisMonth', NOW)).toEqual(['2026-10-01', '2026-10-31']);
    expect(previous('lastMonth', NOW)).toEqual(['2026-09-01', '2026-09-30']);
    expect(previous('thisMonth', new Date('2026-01-10T00:00:00Z'))).toEqual(['2025-12-01', '2025-12-31']);
    expect(previous('thisMonth', new Date('2024-03-15T00:00:00Z'))).toEqual(['2024-02-01', '2024-02-29']);
    expect(previous('thisMonth', new Date('2026-03-15T00:00:00Z'))).toEqual(['2026-02-01', '2026-02-28']);
  });

  it('compares quarters with the quarter before', () => {
    expect(previous('thisQuarter', NOW)).toEqual(['2026-07-01', '2026-09-30']);
    expect(previous('lastQuarter', new Date('2026-02-10T00:00:00Z'))).toEqual(['2025-07-01', '2025-09-30']);
  });

  it('compares years with the year before', () => {
    expect(previous('thisYear', NOW)).toEqual(['2025-01-01', '2025-12-31']);
    expect(previous('year_to_date', NOW)).toEqual(['2025-01-01', '2025-12-31']);
    expect(previous('lastYear', NOW)).toEqual(['2024-01-01', '2024-12-31']);
  });

  it('compares other presets with the same number of days just before', () => {
    expect(previous('today', NOW)).toEqual(['2026-11-22', '2026-11-22']);
    expect(previous('yesterday', NOW)).toEqual(['2026-11-21', '2026-11-21']);
    expect(previous('last7Days', NOW)).toEqual(['2026-11-10', '2026-11-16']);
    expect(previous('last30Days', NOW)).toEqual(['2026-09-25', '2026-10-24']);
    expect(previous('custom', NOW, { startDate: '2026-11-05', endDate: '2026-11-10' })).toEqual(['2026-10-30', '2026-11-04']);
    expect(previous('custom', NOW, { startDate: '2024-03-01', endDate: '2024-03-10' })).toEqual(['2024-02-20', '2024-02-29']);
  });

  it('answers a custom range with its dates and full days', () => {
    const range = previousTimeRange(resolveTimeRange('last7Days', undefined, NOW));
    expect(range).toEqual({
      preset: 'custom',
      startDate: '2026-11-10',
      endDate: '2026-11-16',
      start: '2026-11-10T00:00:00.000Z',
      end: '2026-11-16T23:59:59.999Z',
    });
  });
});

describe('labels and API dates', () => {
  it('lists the ten period presets of the analysis screen in order', () => {
    expect(ANALYSIS_PRESETS.map((p) => p.label)).toEqual([
      'Today',
      'Yesterday',
      'Last 7 Days',
      'Last 30 Days',
      'Last 90 Days',
      'This Month',
      'Last Month',
      'This Year',
      'Last Year',
      'Custom Range',
    ]);
  });

  it('offers This Quarter and Last Quarter on Advanced Cost, after the months', () => {
    expect(ADVANCED_COST_PRESETS.map((p) => p.value)).toEqual([
      'today',
      'yesterday',
      'last7Days',
      'last30Days',
      'last90Days',
      'thisMonth',
      'lastMonth',
      'thisQuarter',
      'lastQuarter',
      'thisYear',
      'lastYear',
      'custom',
    ]);
    expect(ADVANCED_COST_PRESETS.slice(7, 9).map((p) => p.label)).toEqual(['This Quarter', 'Last Quarter']);
  });

  it('formats a range in UTC', () => {
    expect(formatRangeLabel(resolveTimeRange('thisMonth', undefined, NOW))).toBe('Nov 1, 2026 – Nov 23, 2026');
  });

  it('turns an ISO time into its UTC day', () => {
    expect(toApiDate('2026-11-23T23:59:59.999Z')).toBe('2026-11-23');
    expect(toApiDate('2026-11-24T01:00:00.000+02:00')).toBe('2026-11-23');
  });
});
