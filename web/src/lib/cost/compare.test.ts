import { comparedWithLabel, formatChangePercent, formatComparedRange, formatSignedAmount } from './compare';

describe('how a comparison is written', () => {
  it('names the compared range in UTC, the year once within one year', () => {
    expect(formatComparedRange({ start_time: '2026-10-06T00:00:00.000Z', end_time: '2026-10-31T23:59:59.999Z' })).toBe('Oct 6 – Oct 31, 2026');
    expect(formatComparedRange({ start_time: '2025-12-06T00:00:00.000Z', end_time: '2026-01-04T23:59:59.999Z' })).toBe('Dec 6, 2025 – Jan 4, 2026');
    expect(formatComparedRange({ start_time: '2026-11-25T00:00:00.000Z', end_time: '2026-11-25T23:59:59.999Z' })).toBe('Nov 25, 2026');
    expect(comparedWithLabel({ start_time: '2026-10-06T00:00:00.000Z', end_time: '2026-10-31T23:59:59.999Z' })).toBe('vs Oct 6 – Oct 31, 2026');
  });

  it('tells a rise or a fall by arrow and text; New without a previous amount, — when both are 0', () => {
    expect(formatChangePercent({ current: 112.5, previous: 100, percent_change: 12.5 })).toBe('▲ 12.5 %');
    expect(formatChangePercent({ current: 97, previous: 100, percent_change: -3 })).toBe('▼ 3.0 %');
    expect(formatChangePercent({ current: 100, previous: 100, percent_change: 0.01 })).toBe('0.0 %');
    expect(formatChangePercent({ current: 5, previous: 0, percent_change: null })).toBe('New');
    expect(formatChangePercent({ current: 0, previous: 0, percent_change: null })).toBe('—');
    expect(formatChangePercent({ current: 0, previous: 40, percent_change: -100 })).toBe('▼ 100.0 %');
  });

  it('writes a change with its sign, none when it rounds to zero', () => {
    expect(formatSignedAmount(234.5, 'USD')).toBe('+$234.50');
    expect(formatSignedAmount(-3, 'USD')).toBe('-$3.00');
    expect(formatSignedAmount(0.001, 'USD')).toBe('$0.00');
    expect(formatSignedAmount(1_000.4, 'USD', 0)).toBe('+$1,000');
    expect(formatSignedAmount(12, 'EUR')).toBe('+€12.00');
  });
});
