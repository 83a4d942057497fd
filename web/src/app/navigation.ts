import type { FeatureFlags } from '@/api/types';

export interface NavItem {
  label: string;
  to: string;
}

export interface NavGroup {
  /** Heading of the group; undefined for the top-level entries. */
  label?: string;
  items: NavItem[];
}

export interface NavContext {
  flags: FeatureFlags;
  customerId: number | undefined;
  complianceCustomerIds: number[];
  /** Whether the tenant has at least one cloud account. */
  hasAccounts: boolean;
}

/**
 * Spec 1 §2.2: which menu entries a customer sees. With no cloud accounts the menu shows none
 * of them; the old Cost group follows oldCostDashboard, the new one newCostDashboard, IAM the
 * IAMTab flag, Compliance the configured customer ids; Budgets is always there.
 */
export function navigationFor({ flags, customerId, complianceCustomerIds, hasAccounts }: NavContext): NavGroup[] {
  if (!hasAccounts) return [];
  const groups: NavGroup[] = [{ items: [{ label: 'Dashboard', to: '/dashboard' }] }];
  if (flags.oldCostDashboard) {
    groups.push({
      label: 'Cost',
      items: [
        { label: 'Basic Cost', to: '/cost/basic' },
        { label: 'Advanced Cost', to: '/cost/advanced' },
        { label: 'Compare', to: '/cost/compare' },
        { label: 'Cost Query', to: '/cost/query' },
        { label: 'Cost Analysis', to: '/cost/analysis' },
        { label: 'Cost Report', to: '/cost/report' },
      ],
    });
  }
  if (flags.newCostDashboard) {
    groups.push({
      label: 'Cost Analysis',
      items: [
        { label: 'Basic Cost', to: '/cost/basic' },
        { label: 'Advanced Cost', to: '/cost/advanced' },
        { label: 'Compare', to: '/cost/compare' },
        { label: 'Cost Query', to: '/cost/query' },
        { label: 'Cost Saving', to: '/cost/saving' },
      ],
    });
  }
  groups.push({
    label: 'Resources',
    items: [
      { label: 'Inventory', to: '/inventory' },
      { label: 'Tags', to: '/tags' },
    ],
  });
  const governance: NavItem[] = [];
  if (flags.IAMTab) governance.push({ label: 'IAM', to: '/iam' });
  if (customerId !== undefined && complianceCustomerIds.includes(customerId)) {
    governance.push({ label: 'Compliance', to: '/compliance' });
  }
  governance.push({ label: 'Budgets', to: '/budgets' });
  governance.push({ label: 'Anomalies', to: '/anomalies' });
  governance.push({ label: 'Managed Accounts', to: '/managed-accounts' });
  groups.push({ label: 'Governance', items: governance });
  return groups;
}

export function allNavItems(groups: NavGroup[]): NavItem[] {
  return groups.flatMap((g) => g.items);
}
