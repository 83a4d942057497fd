import { describe, expect, it } from 'vitest';
import { SPENDING_RANGE_PRESETS, quickRange, validateSpendingRange } from './spending-range';

const now = new Date('2026-11-23T15:30:00Z');

describe('quick ranges', () => {
  it('are offered in the spec order with its labels', () => {
    expect(SPENDING_RANGE_PRESETS.map((preset) => preset.label)).toEqual([
      'Last 7 Days',
      'Last 30 Days',
      'Last 90 Days',
      'This Month',
      'This Quarter',
      'This Year',
      'Custom',
    ]);
  });

  it('end today (UTC) and start where their name says', () => {
    expect(quickRange('last7Days', now)).toEqual({ preset: 'last7Days', startDate: '2026-11-17', endDate: '2026-11-23' });
    expect(quickRange('last30Days', now).startDate).toBe('2026-10-25');
    expect(quickRange('last90Days', now).startDate).toBe('2026-08-26');
    expect(quickRange('thisMonth', now).startDate).toBe('2026-11-01');
    expect(quickRange('thisQuarter', now).startDate).toBe('2026-10-01');
    expect(quickRange('thisYear', now)).toEqual({ preset: 'thisYear', startDate: '2026-01-01', endDate: '2026-11-23' });
  });

  it('take today as the UTC day', () => {
    expect(quickRange('last7Days', new Date('2026-11-24T01:00:00Z')).endDate).toBe('2026-11-24');
  });
});

describe('validateSpendingRange', () => {
  it('needs both dates', () => {
    expect(validateSpendingRange('', '2026-11-01', now)).toBe('Both start and end dates are required');
    expect(validateSpendingRange('2026-11-01', ' ', now)).toBe('Both start and end dates are required');
  });

  it('tells a wrong shape from a day that does not exist', () => {
    expect(validateSpendingRange('11/01/2026', '2026-11-02', now)).toBe('Invalid date format');
    expect(validateSpendingRange('2026-11-01', '2026-11-2', now)).toBe('Invalid date format');
    expect(validateSpendingRange('2026-02-30', '2026-03-02', now)).toBe('Invalid date values');
    expect(validateSpendingRange('2026-11-01', '2026-13-01', now)).toBe('Invalid date values');
  });

  it('keeps the start before the end and not in the future', () => {
    expect(validateSpendingRange('2026-11-05', '2026-11-04', now)).toBe('Start date cannot be after end date');
    expect(validateSpendingRange('2026-11-24', '2026-11-30', now)).toBe('Start date cannot be in the future');
    expect(validateSpendingRange('2026-11-23', '2026-11-30', now)).toBeNull();
  });

  it('allows at most 730 days from start to end', () => {
    expect(validateSpendingRange('2024-11-23', '2026-11-23', now)).toBeNull(); // 730 days apart
    expect(validateSpendingRange('2024-11-22', '2026-11-23', now)).toBe('Date range cannot exceed 2 years');
  });
});
