import {
  aggregateStatus,
  budgetHealth,
  budgetList,
  budgetStatus,
  countByStatus,
  daysRemaining,
  percentUsed,
  periodAggregates,
  readDashboardBudget,
  topBudgets,
  totalAggregate,
  type DashboardBudget,
} from './budget-health';

const now = new Date('2026-11-23T00:15:00Z');

function budget(id: string, spent: number, amount = 100, period: DashboardBudget['period'] = 'monthly'): DashboardBudget {
  return { id, name: `Budget ${id}`, period, amount, spent };
}

describe('budget health', () => {
  it('is healthy below 70 %, warning from 70 % to under 80 %, critical from 80 %', () => {
    expect(budgetStatus(69.9)).toBe('healthy');
    expect(budgetStatus(70)).toBe('warning');
    expect(budgetStatus(79.9)).toBe('warning');
    expect(budgetStatus(80)).toBe('critical');
  });

  it('warns for a period aggregate from 80 % and is critical from 90 %', () => {
    expect(aggregateStatus(79.9)).toBe('healthy');
    expect(aggregateStatus(80)).toBe('warning');
    expect(aggregateStatus(89.9)).toBe('warning');
    expect(aggregateStatus(90)).toBe('critical');
    expect(periodAggregates([budget('a', 50), budget('b', 130), budget('c', 10, 100, 'yearly')])).toEqual([
      { period: 'monthly', amount: 200, spent: 180, percentUsed: 90, status: 'critical' },
      { period: 'yearly', amount: 100, spent: 10, percentUsed: 10, status: 'healthy' },
    ]);
  });

  it('counts the days left to the end of the month, quarter or year (UTC), today included', () => {
    expect(daysRemaining('monthly', now)).toBe(8);
    expect(daysRemaining('quarterly', now)).toBe(39);
    expect(daysRemaining('yearly', now)).toBe(39);
    expect(daysRemaining('monthly', new Date('2026-11-30T23:00:00Z'))).toBe(1);
    expect(daysRemaining('quarterly', new Date('2026-02-01T00:00:00Z'))).toBe(59);
    expect(daysRemaining('yearly', new Date('2026-01-01T00:00:00Z'))).toBe(365);
  });

  it('lists the top 6, most severe first, then by percent used', () => {
    const budgets = [
      budget('h1', 10),
      budget('c1', 85),
      budget('w1', 72),
      budget('h2', 69),
      budget('c2', 120),
      budget('w2', 79),
      budget('h3', 40),
      budget('h4', 5),
    ];
    const top = topBudgets(budgets, now);
    expect(top.map((b) => b.id)).toEqual(['c2', 'c1', 'w2', 'w1', 'h2', 'h3']);
    expect(top[0]).toMatchObject({ percentUsed: 120, status: 'critical', daysRemaining: 8 });
  });

  it('reads the budget fields under their other names, from a bare or wrapped list', () => {
    const raw = [
      { id: 1, name: 'Prod', period: 'monthly', limit: 200, currentSpent: 50 },
      { id: 'b', name: 'Data', period: 'Quarterly', budgetAmount: '300', current_spent: 30 },
      { id: 3, name: 'Old', period: 'yearly', budget: 10, usage: 2 },
      { id: 4, name: 'No period', amount: 10 },
    ];
    const expected = [
      { id: '1', name: 'Prod', period: 'monthly', amount: 200, spent: 50 },
      { id: 'b', name: 'Data', period: 'quarterly', amount: 300, spent: 30 },
      { id: '3', name: 'Old', period: 'yearly', amount: 10, spent: 2 },
    ];
    expect(budgetList(raw)).toEqual(expected);
    expect(budgetList({ data: raw })).toEqual(expected);
    expect(budgetList({ budgets: raw })).toEqual(expected);
    expect(budgetList({ unexpected: true })).toEqual([]);
    expect(readDashboardBudget({ id: 5, period: 'monthly', amount: 10, spent: 1 })).toMatchObject({ name: '5' });
  });

  it('uses 100 % for spend against a budget of 0', () => {
    expect(percentUsed({ amount: 0, spent: 5 })).toBe(100);
    expect(percentUsed({ amount: 0, spent: 0 })).toBe(0);
  });

  it('counts the budgets per status by the per-budget bands', () => {
    expect(countByStatus([budget('a', 69.9), budget('b', 70), budget('c', 79.9), budget('d', 80), budget('e', 150)])).toEqual({
      healthy: 1,
      warning: 2,
      critical: 2,
    });
    expect(countByStatus([])).toEqual({ healthy: 0, warning: 0, critical: 0 });
  });

  it('adds every budget up for the total, with the aggregate bands', () => {
    expect(totalAggregate([budget('a', 50), budget('b', 30, 100, 'quarterly')])).toEqual({
      amount: 200,
      spent: 80,
      percentUsed: 40,
      status: 'healthy',
    });
    // 85 % would be critical for one budget but is only a warning for the aggregate.
    expect(totalAggregate([budget('a', 85)])).toMatchObject({ percentUsed: 85, status: 'warning' });
    expect(totalAggregate([])).toEqual({ amount: 0, spent: 0, percentUsed: 0, status: 'healthy' });
  });
});

describe("the server's readings", () => {
  it('are shown as answered: status, percent used and days remaining', () => {
    // 2.877 of 4.11 is 69.99999999999999 % in floating point; the server compares the amounts
    // exactly and answers 70 %, warning. The widgets take its word.
    const [budget] = budgetList([
      {
        id: 9,
        name: 'Exact',
        period: 'Monthly',
        amount: 4.11,
        currentSpent: 2.877,
        percentUsed: 70,
        daysRemaining: 8,
        missionControlStatus: 'warning',
      },
    ]);
    expect(percentUsed(budget)).toBeLessThan(70);
    const health = budgetHealth(budget, new Date('2026-11-01T00:00:00Z'));
    expect(health).toEqual({
      id: '9',
      name: 'Exact',
      period: 'monthly',
      amount: 4.11,
      spent: 2.877,
      percentUsed: 70,
      daysRemaining: 8,
      status: 'warning',
    });
    expect(countByStatus([budget])).toEqual({ healthy: 0, warning: 1, critical: 0 });
  });
});
