import type { AlertBasis, AlertThreshold, Budget } from '../model/types';

/** An alert threshold of a test budget; without a basis it is `Actual`, as the server answers. */
export type TestAlert = Omit<AlertThreshold, 'basis'> & { basis?: AlertBasis };

/** What a test may override; its alerts may leave out the basis. */
export type BudgetOverrides = Omit<Partial<Budget>, 'alerts' | 'reachedAlerts'> & {
  alerts?: TestAlert[];
  reachedAlerts?: TestAlert[];
};

export function withBasis(alert: TestAlert): AlertThreshold {
  return { ...alert, basis: alert.basis ?? 'Actual' };
}

/**
 * A budget as GET /v1/budgets answers it (docs/API-BUDGETS.md), for tests. The server's readings
 * (status, detailStatus, exceeded, reachedAlerts…) follow the spend given unless overridden, the
 * way the server computes them, so that a test states only the figures it is about.
 */
export function makeBudget(overrides: BudgetOverrides = {}): Budget {
  const amount = overrides.amount ?? 5000;
  const currentSpent = overrides.currentSpent ?? 2000;
  const percentUsed = overrides.percentUsed ?? (amount > 0 ? (currentSpent / amount) * 100 : 0);
  const alerts: AlertThreshold[] = (
    overrides.alerts ?? [
      { thresholdType: 'Percentage', thresholdValue: 75 },
      { thresholdType: 'Absolute', thresholdValue: 4500 },
    ]
  ).map(withBasis);
  const reachedAlerts =
    overrides.reachedAlerts?.map(withBasis) ??
    alerts.filter((alert) =>
      alert.thresholdType === 'Percentage' ? percentUsed >= alert.thresholdValue : currentSpent >= alert.thresholdValue,
    );
  return {
    id: 7,
    name: 'Production AWS',
    amount,
    period: 'Monthly',
    filters: [{ filterType: 'account', filterValues: ['123456789012'] }],
    currentSpent,
    previousSpent: 1600,
    percentUsed,
    status: percentUsed >= 90 ? 'critical' : percentUsed >= 75 ? 'warning' : 'healthy',
    detailStatus: percentUsed > 100 ? 'exceeded' : percentUsed >= 75 ? 'warning' : 'healthy',
    missionControlStatus: percentUsed >= 80 ? 'critical' : percentUsed >= 70 ? 'warning' : 'healthy',
    exceeded: percentUsed >= 100,
    triggeredAlerts: reachedAlerts.length,
    periodStart: '2026-11-01',
    periodEnd: '2026-11-30',
    daysRemaining: 7,
    createdAt: '2026-11-01T10:00:00Z',
    updatedAt: '2026-11-01T10:00:00Z',
    currency: 'USD',
    converted: false,
    otherCurrencies: [],
    warnings: [],
    channelIds: [],
    forecast: null,
    ...overrides,
    alerts,
    reachedAlerts,
  };
}
