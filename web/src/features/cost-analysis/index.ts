export { AdvancedCostPage, type AdvancedCostPageProps } from './components/advanced-cost-page';
export { SavedReportsPage } from './components/saved-reports-page';
