export { AdvancedCostPage } from './components/advanced-cost-page';
export { SavedReportsPage } from './components/saved-reports-page';
