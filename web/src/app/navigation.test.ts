import { makeConfig } from '@/test/fixtures';
import { allNavItems, navigationFor, type NavContext } from './navigation';

const base = (overrides: Partial<NavContext> = {}, features = {}): NavContext => ({
  flags: makeConfig({}, features).features,
  customerId: 10,
  complianceCustomerIds: [112, 3],
  hasAccounts: true,
  ...overrides,
});
const paths = (ctx: NavContext) => allNavItems(navigationFor(ctx)).map((i) => i.to);

describe('navigation menu rules', () => {
  it('shows none of the items without cloud accounts', () => {
    expect(navigationFor(base({ hasAccounts: false }))).toEqual([]);
    expect(navigationFor(base({ hasAccounts: false, customerId: 112 }, { IAMTab: true }))).toEqual([]);
  });

  it('shows the old Cost group, not the new one, with the default flags', () => {
    const groups = navigationFor(base());
    expect(groups.map((g) => g.label)).toContain('Cost');
    expect(groups.map((g) => g.label)).not.toContain('Cost Analysis');
    expect(paths(base())).toEqual(
      expect.arrayContaining(['/dashboard', '/cost/basic', '/cost/advanced', '/cost/analysis', '/cost/report', '/inventory', '/tags', '/budgets', '/managed-accounts']),
    );
    expect(paths(base())).not.toContain('/cost/saving');
  });

  it('shows the new Cost group only with newCostDashboard', () => {
    const ctx = base({}, { oldCostDashboard: false, newCostDashboard: true });
    expect(navigationFor(ctx).map((g) => g.label)).toEqual(expect.arrayContaining(['Cost Analysis']));
    expect(navigationFor(ctx).map((g) => g.label)).not.toContain('Cost');
    expect(paths(ctx)).toContain('/cost/saving');
  });

  it('shows Compare right after Advanced Cost in either Cost group', () => {
    for (const ctx of [base(), base({}, { oldCostDashboard: false, newCostDashboard: true })]) {
      const labels = allNavItems(navigationFor(ctx)).map((i) => i.label);
      expect(labels[labels.indexOf('Advanced Cost') + 1]).toBe('Compare');
      expect(paths(ctx)).toContain('/cost/compare');
    }
  });

  it('shows Cost Query right after Compare in either Cost group', () => {
    for (const ctx of [base(), base({}, { oldCostDashboard: false, newCostDashboard: true })]) {
      const items = allNavItems(navigationFor(ctx));
      const compare = items.findIndex((i) => i.label === 'Compare');
      expect(items[compare + 1]).toEqual({ label: 'Cost Query', to: '/cost/query' });
    }
  });

  it('shows IAM only with the IAMTab flag', () => {
    expect(paths(base())).not.toContain('/iam');
    expect(paths(base({}, { IAMTab: true }))).toContain('/iam');
  });

  it('shows Compliance only for the configured customer ids', () => {
    expect(paths(base({ customerId: 10 }))).not.toContain('/compliance');
    expect(paths(base({ customerId: 112 }))).toContain('/compliance');
    expect(paths(base({ customerId: 3 }))).toContain('/compliance');
    expect(paths(base({ customerId: 3, complianceCustomerIds: [] }))).not.toContain('/compliance');
  });

  it('always shows Budgets when there are accounts', () => {
    expect(paths(base({}, { oldCostDashboard: false }))).toContain('/budgets');
  });

  it('shows Anomalies right after Budgets', () => {
    const governance = navigationFor(base()).find((g) => g.label === 'Governance')!;
    const labels = governance.items.map((i) => i.label);
    expect(labels[labels.indexOf('Budgets') + 1]).toBe('Anomalies');
    expect(paths(base({}, { oldCostDashboard: false }))).toContain('/anomalies');
  });
});
