import { makeBudget } from '../testing/make-budget';
import { alertDescription, alertLabel, basisOf, isAlertReached, isSameAlert, reachedAlerts } from './alerts';

describe('isAlertReached', () => {
  it("reads the server's reachedAlerts, not the spend", () => {
    const alert = { thresholdType: 'Percentage', thresholdValue: 29, basis: 'Actual' } as const;
    // In floating point 29 / 100 * 100 is 28.999999999999996: the server compares the cents
    // exactly and answers the threshold as reached; the client takes its word.
    const budget = makeBudget({ amount: 100, currentSpent: 29, percentUsed: 29, reachedAlerts: [alert] });
    expect(isAlertReached(alert, budget)).toBe(true);
    expect(isAlertReached({ thresholdType: 'Absolute', thresholdValue: 29, basis: 'Actual' }, budget)).toBe(false);
    expect(isAlertReached({ ...alert, basis: 'Forecasted' }, budget)).toBe(false);
    expect(isAlertReached(alert, { reachedAlerts: [] })).toBe(false);
  });
});

describe('reachedAlerts', () => {
  it('lists the alerts the server reports reached', () => {
    const reached = [
      { thresholdType: 'Percentage', thresholdValue: 75, basis: 'Actual' },
      { thresholdType: 'Absolute', thresholdValue: 3000, basis: 'Forecasted' },
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

describe('alert basis', () => {
  it('reads a missing basis as Actual', () => {
    expect(basisOf({})).toBe('Actual');
    expect(basisOf({ basis: null })).toBe('Actual');
    expect(basisOf({ basis: 'Forecasted' })).toBe('Forecasted');
  });

  it('counts type, value and basis as the same alert', () => {
    const alert = { thresholdType: 'Percentage', thresholdValue: 90 } as const;
    expect(isSameAlert(alert, { ...alert, basis: 'Actual' })).toBe(true);
    expect(isSameAlert(alert, { ...alert, basis: 'Forecasted' })).toBe(false);
    expect(isSameAlert(alert, { ...alert, thresholdType: 'Absolute' })).toBe(false);
  });

  it('names the Forecasted basis after the label', () => {
    expect(alertDescription({ thresholdType: 'Percentage', thresholdValue: 100, basis: 'Forecasted' })).toBe('100% (Forecasted)');
    expect(alertDescription({ thresholdType: 'Absolute', thresholdValue: 4500, basis: 'Actual' })).toBe('$4,500');
  });
});
