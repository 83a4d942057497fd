import { makeBudget } from '../../testing/make-budget';
import { PROGRESS_TICKS, alertMarkers, overBudgetAmount, progressFill } from './progress-markers';

describe('progress markers', () => {
  it('ticks at 25, 50, 75 and 100 percent', () => {
    expect(PROGRESS_TICKS).toEqual([25, 50, 75, 100]);
  });

  it('caps the fill at 100 and never goes below 0', () => {
    expect(progressFill(106.2)).toBe(100);
    expect(progressFill(42.5)).toBe(42.5);
    expect(progressFill(-3)).toBe(0);
  });

  it('places percentage alerts at their value and absolute alerts at their percent of the amount', () => {
    const budget = makeBudget({
      amount: 5000,
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 75 },
        { thresholdType: 'Absolute', thresholdValue: 4500 },
      ],
    });
    expect(alertMarkers(budget)).toEqual([
      { percent: 75, label: '75%' },
      { percent: 90, label: '$4,500' },
    ]);
  });

  it('keeps a marker on the bar when an absolute threshold is above the amount', () => {
    const budget = makeBudget({ amount: 1000, alerts: [{ thresholdType: 'Absolute', thresholdValue: 1500 }] });
    expect(alertMarkers(budget)[0].percent).toBe(100);
  });

  it('counts only the dollars over the amount', () => {
    expect(overBudgetAmount(5310, 5000)).toBe(310);
    expect(overBudgetAmount(4000, 5000)).toBe(0);
  });
});
