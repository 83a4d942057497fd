import type { BudgetAlertHistoryItem } from '../../model/types';
import { makeBudget } from '../../testing/make-budget';
import { alertDistance, alertStatusText, alertStatuses, latestTriggerOf, thresholdPercent } from './alert-status';

function trigger(overrides: Partial<BudgetAlertHistoryItem>): BudgetAlertHistoryItem {
  return {
    id: 1,
    triggeredAt: '2026-11-10T08:00:00Z',
    date: '2026-11-10',
    thresholdType: 'Percentage',
    thresholdValue: 75,
    spentAmount: 3800,
    spendPercentage: 76,
    periodStart: '2026-11-01',
    basis: 'Actual',
    deliveries: [],
    ...overrides,
  };
}

describe('thresholdPercent', () => {
  it('keeps a percentage and converts an absolute threshold to percent of the amount', () => {
    expect(thresholdPercent({ thresholdType: 'Percentage', thresholdValue: 75 }, 5000)).toBe(75);
    expect(thresholdPercent({ thresholdType: 'Absolute', thresholdValue: 4500 }, 5000)).toBe(90);
  });
});

describe('latestTriggerOf', () => {
  it('picks the newest entry with the same type and value', () => {
    const history = [
      trigger({ id: 1, triggeredAt: '2026-10-05T08:00:00Z' }),
      trigger({ id: 2, triggeredAt: '2026-11-12T08:00:00Z' }),
      trigger({ id: 3, triggeredAt: '2026-11-20T08:00:00Z', thresholdType: 'Absolute' }),
      trigger({ id: 4, triggeredAt: '2026-11-21T08:00:00Z', thresholdValue: 50 }),
    ];
    expect(latestTriggerOf({ thresholdType: 'Percentage', thresholdValue: 75 }, history)?.id).toBe(2);
    expect(latestTriggerOf({ thresholdType: 'Percentage', thresholdValue: 90 }, history)).toBeUndefined();
  });

  it('tells the bases apart: a Forecasted trigger is not an Actual one', () => {
    const history = [
      trigger({ id: 1, triggeredAt: '2026-11-05T08:00:00Z', basis: 'Forecasted' }),
      trigger({ id: 2, triggeredAt: '2026-11-12T08:00:00Z' }),
    ];
    expect(latestTriggerOf({ thresholdType: 'Percentage', thresholdValue: 75, basis: 'Forecasted' }, history)?.id).toBe(1);
    expect(latestTriggerOf({ thresholdType: 'Percentage', thresholdValue: 75, basis: 'Actual' }, history)?.id).toBe(2);
  });
});

describe('alertStatuses', () => {
  it('puts triggered alerts first by latest trigger, then the rest by threshold ascending', () => {
    const budget = makeBudget({
      amount: 5000,
      currentSpent: 4000, // 80%
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 100 },
        { thresholdType: 'Percentage', thresholdValue: 25 },
        { thresholdType: 'Absolute', thresholdValue: 4500 }, // 90%
        { thresholdType: 'Percentage', thresholdValue: 50 },
        { thresholdType: 'Absolute', thresholdValue: 3000 }, // 60%, reached, no history
        { thresholdType: 'Percentage', thresholdValue: 75 },
      ],
    });
    const history = [
      trigger({ thresholdValue: 25, triggeredAt: '2026-11-03T08:00:00Z' }),
      trigger({ thresholdValue: 75, triggeredAt: '2026-11-20T08:00:00Z' }),
      trigger({ thresholdValue: 50, triggeredAt: '2026-11-09T08:00:00Z' }),
    ];
    const order = alertStatuses(budget, history).map((s) => [s.alert.thresholdType, s.alert.thresholdValue, s.triggered]);
    expect(order).toEqual([
      ['Percentage', 75, true],
      ['Percentage', 50, true],
      ['Percentage', 25, true],
      ['Absolute', 3000, true],
      ['Absolute', 4500, false],
      ['Percentage', 100, false],
    ]);
  });

  it('orders alerts at the same point with the percentage one first', () => {
    const budget = makeBudget({
      amount: 1000,
      currentSpent: 0,
      alerts: [
        { thresholdType: 'Absolute', thresholdValue: 500 },
        { thresholdType: 'Percentage', thresholdValue: 50 },
      ],
    });
    expect(alertStatuses(budget, []).map((s) => s.alert.thresholdType)).toEqual(['Percentage', 'Absolute']);
  });
});

describe('alertDistance', () => {
  it('says how many dollars are left to an absolute threshold', () => {
    expect(alertDistance({ thresholdType: 'Absolute', thresholdValue: 4500 }, { currentSpent: 3300, percentUsed: 66 })).toBe('$1,200 to go');
  });

  it('says how many percentage points are left to a percentage threshold', () => {
    expect(alertDistance({ thresholdType: 'Percentage', thresholdValue: 75 }, { currentSpent: 3125, percentUsed: 62.5 })).toBe('12.5% to go');
  });

  it('never reads as nothing left while the threshold is not reached', () => {
    expect(alertDistance({ thresholdType: 'Absolute', thresholdValue: 4500 }, { currentSpent: 4499.7, percentUsed: 89.994 })).toBe('$1 to go');
    expect(alertDistance({ thresholdType: 'Percentage', thresholdValue: 75 }, { currentSpent: 3749.9, percentUsed: 74.998 })).toBe('0.1% to go');
  });
});

describe('alertStatusText', () => {
  const alert = { thresholdType: 'Percentage', thresholdValue: 75 } as const;

  it("says 'Triggered (no history data)' for a reached alert without a recorded trigger", () => {
    expect(alertStatusText({ alert, triggered: true, latestTrigger: undefined }, { currentSpent: 4000, percentUsed: 80 })).toBe('Triggered (no history data)');
  });

  it('gives the date and the spend of the latest trigger', () => {
    const latest = trigger({ triggeredAt: '2026-11-23T10:00:02Z', spentAmount: 5310.42 });
    expect(alertStatusText({ alert, triggered: true, latestTrigger: latest }, { currentSpent: 5400, percentUsed: 108 })).toBe(
      'Triggered on 23 November 2026 at $5,310 spent',
    );
  });

  it('gives the distance of an alert not reached, even with an older trigger', () => {
    const old = trigger({ triggeredAt: '2026-10-23T10:00:02Z' });
    expect(alertStatusText({ alert, triggered: false, latestTrigger: old }, { currentSpent: 2500, percentUsed: 50 })).toBe('25.0% to go');
  });

  describe('a Forecasted alert', () => {
    const forecasted = { thresholdType: 'Absolute', thresholdValue: 4500, basis: 'Forecasted' } as const;
    const forecast = { amount: 4200, low: 4000, high: 4400, exceedsOn: null, exceedsOnForecast: false };

    it('measures the distance on the forecast total', () => {
      expect(
        alertStatusText({ alert: forecasted, triggered: false, latestTrigger: undefined }, { currentSpent: 2000, percentUsed: 40, amount: 5000, forecast }),
      ).toBe('$300 to go on the forecast');
    });

    it('says there is no forecast yet without one', () => {
      expect(
        alertStatusText({ alert: forecasted, triggered: false, latestTrigger: undefined }, { currentSpent: 2000, percentUsed: 40, amount: 5000, forecast: null }),
      ).toBe('No forecast yet (not enough cost history)');
    });

    it('says when the forecast triggered it', () => {
      const latest = trigger({ thresholdType: 'Absolute', thresholdValue: 4500, basis: 'Forecasted', triggeredAt: '2026-11-12T06:00:00Z', spentAmount: 1900 });
      expect(alertStatusText({ alert: forecasted, triggered: true, latestTrigger: latest }, { currentSpent: 2000, percentUsed: 40 })).toBe(
        'Triggered by the forecast on 12 November 2026 ($1,900 spent)',
      );
    });
  });
});
