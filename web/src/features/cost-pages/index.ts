export { BasicCostPage } from './components/basic-cost-page';
export { CostSavingPage } from './components/cost-saving-page';
export { CostTabsPage } from './components/cost-tabs-page';
export { CostVisualisationPage } from './components/cost-visualisation-page';
export { DashboardTabsPage } from './components/dashboard-tabs-page';
export { ManagedAccountsPage } from './components/managed-accounts-page';
export type { CostTab, CostTabsPageProps } from './components/cost-tabs-page';
