import {
  barColor,
  budgetPercentUsed,
  dashboardStatus,
  DETAIL_STATUS_LABEL,
  detailStatus,
  isExceeded,
  percentUsed,
} from './health';

describe('percentUsed', () => {
  it('is spent over amount, unrounded', () => {
    expect(percentUsed(5310.42, 5000)).toBeCloseTo(106.2084, 4);
    expect(percentUsed(0, 5000)).toBe(0);
  });

  it('is 0 when the amount is 0 or negative', () => {
    expect(percentUsed(100, 0)).toBe(0);
    expect(percentUsed(100, -5)).toBe(0);
  });

  it('reads a budget', () => {
    expect(budgetPercentUsed({ currentSpent: 900, amount: 1000 })).toBe(90);
  });
});

describe('dashboardStatus (75 / 90)', () => {
  it.each([
    [0, 'healthy'],
    [74.99, 'healthy'],
    [75, 'warning'],
    [89.99, 'warning'],
    [90, 'critical'],
    [150, 'critical'],
  ] as const)('%s%% is %s', (percent, status) => {
    expect(dashboardStatus(percent)).toBe(status);
  });
});

describe('isExceeded (dashboard)', () => {
  it('is true from 100%', () => {
    expect(isExceeded(99.99)).toBe(false);
    expect(isExceeded(100)).toBe(true);
    expect(isExceeded(106.2)).toBe(true);
  });
});

describe('detailStatus', () => {
  it.each([
    [74.99, 'healthy', 'On Track'],
    [75, 'warning', 'Approaching Limit'],
    [100, 'warning', 'Approaching Limit'],
    [100.01, 'exceeded', 'Exceeded Budget'],
  ] as const)('%s%% is %s (%s)', (percent, status, label) => {
    expect(detailStatus(percent)).toBe(status);
    expect(DETAIL_STATUS_LABEL[detailStatus(percent)]).toBe(label);
  });
});

describe('barColor', () => {
  it('is green below 75, yellow from 75, red from 90', () => {
    expect(barColor(74.9)).toBe('success');
    expect(barColor(75)).toBe('warning');
    expect(barColor(89.9)).toBe('warning');
    expect(barColor(90)).toBe('error');
  });

  it('is grey only when a spend of zero is given', () => {
    expect(barColor(0, 0)).toBe('inherit');
    expect(barColor(0)).toBe('success');
    expect(barColor(95, 10)).toBe('error');
  });
});
