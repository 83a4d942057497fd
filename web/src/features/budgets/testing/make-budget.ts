import type { Budget } from '../model/types';

/** A budget as GET /v1/budgets answers it (docs/API-BUDGETS.md), for tests. */
export function makeBudget(overrides: Partial<Budget> = {}): Budget {
  const amount = overrides.amount ?? 5000;
  const currentSpent = overrides.currentSpent ?? 2000;
  const percentUsed = amount > 0 ? (currentSpent / amount) * 100 : 0;
  return {
    id: 7,
    name: 'Production AWS',
    amount,
    period: 'Monthly',
    filters: [{ filterType: 'account', filterValues: ['123456789012'] }],
    alerts: [
      { thresholdType: 'Percentage', thresholdValue: 75 },
      { thresholdType: 'Absolute', thresholdValue: 4500 },
    ],
    currentSpent,
    previousSpent: 1600,
    percentUsed,
    status: percentUsed >= 90 ? 'critical' : percentUsed >= 75 ? 'warning' : 'healthy',
    exceeded: percentUsed >= 100,
    triggeredAlerts: 0,
    periodStart: '2026-11-01',
    periodEnd: '2026-11-30',
    daysRemaining: 7,
    createdAt: '2026-11-01T10:00:00Z',
    updatedAt: '2026-11-01T10:00:00Z',
    currency: 'USD',
    converted: false,
    otherCurrencies: [],
    warnings: [],
    ...overrides,
  };
}
