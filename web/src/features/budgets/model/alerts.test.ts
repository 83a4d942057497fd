import { makeBudget } from '../testing/make-budget';
import { alertLabel, isAlertReached, reachedAlerts } from './alerts';

describe('isAlertReached', () => {
  it('compares a percentage threshold with the percentage used, at or above', () => {
    const alert = { thresholdType: 'Percentage', thresholdValue: 75 } as const;
    expect(isAlertReached(alert, 3749, 5000)).toBe(false);
    expect(isAlertReached(alert, 3750, 5000)).toBe(true);
  });

  it('compares an absolute threshold with the spend, at or above', () => {
    const alert = { thresholdType: 'Absolute', thresholdValue: 4500 } as const;
    expect(isAlertReached(alert, 4499.99, 5000)).toBe(false);
    expect(isAlertReached(alert, 4500, 5000)).toBe(true);
  });
});

describe('reachedAlerts', () => {
  it('lists the alerts the budget has reached', () => {
    const budget = makeBudget({
      amount: 5000,
      currentSpent: 4000,
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 75 },
        { thresholdType: 'Percentage', thresholdValue: 100 },
        { thresholdType: 'Absolute', thresholdValue: 4500 },
        { thresholdType: 'Absolute', thresholdValue: 3000 },
      ],
    });
    expect(reachedAlerts(budget)).toEqual([
      { thresholdType: 'Percentage', thresholdValue: 75 },
      { thresholdType: 'Absolute', thresholdValue: 3000 },
    ]);
  });
});

describe('alertLabel', () => {
  it('shows a percent or dollars', () => {
    expect(alertLabel({ thresholdType: 'Percentage', thresholdValue: 75 })).toBe('75%');
    expect(alertLabel({ thresholdType: 'Absolute', thresholdValue: 4500 })).toBe('$4,500');
  });
});
