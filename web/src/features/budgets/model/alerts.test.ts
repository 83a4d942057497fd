import { makeBudget } from '../testing/make-budget';
import { alertLabel, isAlertReached, reachedAlerts } from './alerts';

describe('isAlertReached', () => {
  it("reads the server's reachedAlerts, not the spend", () => {
    const alert = { thresholdType: 'Percentage', thresholdValue: 29 } as const;
    // In floating point 29 / 100 * 100 is 28.999999999999996: the server compares the cents
    // exactly and answers the threshold as reached; the client takes its word.
    const budget = makeBudget({ amount: 100, currentSpent: 29, percentUsed: 29, reachedAlerts: [alert] });
    expect(isAlertReached(alert, budget)).toBe(true);
    expect(isAlertReached({ thresholdType: 'Absolute', thresholdValue: 29 }, budget)).toBe(false);
    expect(isAlertReached(alert, { reachedAlerts: [] })).toBe(false);
  });
});

describe('reachedAlerts', () => {
  it('lists the alerts the server reports reached', () => {
    const reached = [
      { thresholdType: 'Percentage', thresholdValue: 75 },
      { thresholdType: 'Absolute', thresholdValue: 3000 },
    ] as const;
    const budget = makeBudget({ reachedAlerts: [...reached] });
    expect(reachedAlerts(budget)).toEqual(reached);
  });
});

describe('alertLabel', () => {
  it('shows a percent or dollars', () => {
    expect(alertLabel({ thresholdType: 'Percentage', thresholdValue: 75 })).toBe('75%');
    expect(alertLabel({ thresholdType: 'Absolute', thresholdValue: 4500 })).toBe('$4,500');
  });
});
