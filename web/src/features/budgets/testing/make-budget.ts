import type { AlertThreshold, Budget } from '../model/types';

/**
 * A budget as GET /v1/budgets answers it (docs/API-BUDGETS.md), for tests. The server's readings
 * (status, detailStatus, exceeded, reachedAlerts…) follow the spend given unless overridden, the
 * way the server computes them, so that a test states only the figures it is about.
 */
export function makeBudget(overrides: Partial<Budget> = {}): Budget {
  const amount = overrides.amount ?? 5000;
  const currentSpent = overrides.currentSpent ?? 2000;
  const percentUsed = overrides.percentUsed ?? (amount > 0 ? (currentSpent / amount) * 100 : 0);
  const alerts: AlertThreshold[] = overrides.alerts ?? [
    { thresholdType: 'Percentage', thresholdValue: 75 },
    { thresholdType: 'Absolute', thresholdValue: 4500 },
  ];
  const reachedAlerts =
    overrides.reachedAlerts ??
    alerts.filter((alert) =>
      alert.thresholdType === 'Percentage' ? percentUsed >= alert.thresholdValue : currentSpent >= alert.thresholdValue,
    );
  return {
    id: 7,
    name: 'Production AWS',
    amount,
    period: 'Monthly',
    filters: [{ filterType: 'account', filterValues: ['123456789012'] }],
    alerts,
    currentSpent,
    previousSpent: 1600,
    percentUsed,
    status: percentUsed >= 90 ? 'critical' : percentUsed >= 75 ? 'warning' : 'healthy',
    detailStatus: percentUsed > 100 ? 'exceeded' : percentUsed >= 75 ? 'warning' : 'healthy',
    missionControlStatus: percentUsed >= 80 ? 'critical' : percentUsed >= 70 ? 'warning' : 'healthy',
    exceeded: percentUsed >= 100,
    triggeredAlerts: reachedAlerts.length,
    reachedAlerts,
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
    ...overrides,
  };
}
