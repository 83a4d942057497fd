import { formatPercent, formatUsd, formatUsdCompact } from './format';

describe('formatUsd', () => {
  it('shows dollars without decimals', () => {
    expect(formatUsd(5310.42)).toBe('$5,310');
    expect(formatUsd(4500)).toBe('$4,500');
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(0.4)).toBe('$0');
    expect(formatUsd(-0.4)).toBe('$0');
    expect(formatUsd(-1200)).toBe('-$1,200');
  });
});

describe('formatUsdCompact', () => {
  it.each([
    [0, '$0'],
    [950, '$950'],
    [999.6, '$1K'],
    [5310, '$5.3K'],
    [5000, '$5K'],
    [950_000, '$950K'],
    [999_960, '$1M'],
    [1_234_567, '$1.2M'],
    [3_000_000_000, '$3B'],
    [-5310, '-$5.3K'],
  ])('%s is %s', (value, text) => {
    expect(formatUsdCompact(value)).toBe(text);
  });
});

describe('formatPercent', () => {
  it('shows one decimal', () => {
    expect(formatPercent(106.2084)).toBe('106.2%');
    expect(formatPercent(75)).toBe('75.0%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(Number.NaN)).toBe('0.0%');
    expect(formatPercent(-0.01)).toBe('0.0%');
  });
});
