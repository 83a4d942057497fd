import { makeBudget } from '../testing/make-budget';
import {
  matchesSearch,
  matchesStatus,
  nextSort,
  sortBudgets,
  toggleStatusFilter,
  visibleBudgets,
} from './dashboard';

const production = makeBudget({
  id: 1,
  name: 'Production AWS',
  amount: 5000,
  currentSpent: 5310,
  filters: [
    { filterType: 'account', filterValues: ['123456789012'] },
    { filterType: 'cloudProvider', filterValues: ['aws'] },
  ],
  alerts: [{ thresholdType: 'Percentage', thresholdValue: 100 }],
});
const staging = makeBudget({
  id: 2,
  name: 'staging',
  amount: 1000,
  currentSpent: 800,
  filters: [{ filterType: 'region', filterValues: ['eu-west-1'] }],
  alerts: [{ thresholdType: 'Absolute', thresholdValue: 900 }],
});
const analytics = makeBudget({
  id: 3,
  name: 'Analytics',
  amount: 20000,
  currentSpent: 100,
  filters: [{ filterType: 'cloudProvider', filterValues: ['GCP'] }],
  alerts: [],
});
const all = [production, staging, analytics];

describe('matchesSearch', () => {
  it('matches the name, case-insensitively', () => {
    expect(matchesSearch(production, 'production')).toBe(true);
    expect(matchesSearch(staging, 'STAG')).toBe(true);
  });

  it('matches the values of account filters', () => {
    expect(matchesSearch(production, '1234567')).toBe(true);
  });

  it('matches the providers', () => {
    expect(matchesSearch(analytics, 'gcp')).toBe(true);
  });

  it('does not match other filter values', () => {
    expect(matchesSearch(staging, 'eu-west')).toBe(false);
  });

  it('matches everything when blank', () => {
    expect(matchesSearch(staging, '   ')).toBe(true);
  });
});

describe('matchesStatus', () => {
  it('filters by the dashboard band', () => {
    expect(matchesStatus(production, 'critical')).toBe(true);
    expect(matchesStatus(staging, 'warning')).toBe(true);
    expect(matchesStatus(analytics, 'healthy')).toBe(true);
    expect(matchesStatus(analytics, 'critical')).toBe(false);
  });

  it('ALERTS matches budgets with any alert reached', () => {
    expect(matchesStatus(production, 'alerts')).toBe(true);
    expect(matchesStatus(staging, 'alerts')).toBe(false);
    expect(matchesStatus(analytics, 'alerts')).toBe(false);
  });

  it('matches everything without a filter', () => {
    expect(all.every((b) => matchesStatus(b, null))).toBe(true);
  });
});

describe('toggleStatusFilter', () => {
  it('toggles the same status off and replaces another', () => {
    expect(toggleStatusFilter(null, 'warning')).toBe('warning');
    expect(toggleStatusFilter('warning', 'warning')).toBeNull();
    expect(toggleStatusFilter('warning', 'alerts')).toBe('alerts');
  });
});

describe('nextSort', () => {
  it('toggles the direction of the same field', () => {
    expect(nextSort({ field: 'name', direction: 'asc' }, 'name')).toEqual({ field: 'name', direction: 'desc' });
    expect(nextSort({ field: 'name', direction: 'desc' }, 'name')).toEqual({ field: 'name', direction: 'asc' });
  });

  it('starts a new field ascending', () => {
    expect(nextSort({ field: 'name', direction: 'desc' }, 'amount')).toEqual({ field: 'amount', direction: 'asc' });
  });
});

describe('sortBudgets', () => {
  const ids = (budgets: { id: number }[]) => budgets.map((b) => b.id);

  it('sorts by name, ignoring case', () => {
    expect(ids(sortBudgets(all, { field: 'name', direction: 'asc' }))).toEqual([3, 1, 2]);
    expect(ids(sortBudgets(all, { field: 'name', direction: 'desc' }))).toEqual([2, 1, 3]);
  });

  it('sorts by amount, spent and percentage used', () => {
    expect(ids(sortBudgets(all, { field: 'amount', direction: 'asc' }))).toEqual([2, 1, 3]);
    expect(ids(sortBudgets(all, { field: 'currentSpent', direction: 'desc' }))).toEqual([1, 2, 3]);
    expect(ids(sortBudgets(all, { field: 'percentUsed', direction: 'asc' }))).toEqual([3, 2, 1]);
  });

  it('does not change its input', () => {
    sortBudgets(all, { field: 'amount', direction: 'desc' });
    expect(ids(all)).toEqual([1, 2, 3]);
  });
});

describe('visibleBudgets', () => {
  it('applies search, status and sort together', () => {
    const view = { search: 'a', status: null, sort: { field: 'amount', direction: 'desc' } } as const;
    expect(visibleBudgets(all, view).map((b) => b.id)).toEqual([3, 1, 2]);
    expect(visibleBudgets(all, { ...view, status: 'critical' }).map((b) => b.id)).toEqual([1]);
    expect(visibleBudgets(all, { ...view, search: 'nothing' })).toEqual([]);
  });
});
