// The budget pages, for web/src/app/routes (docs/WEB-BUDGETS.md).
export { BudgetsDashboardPage } from './components/dashboard/budgets-dashboard-page';
export { BudgetDetailPage } from './components/detail/budget-detail-page';
export { BudgetWizardPage } from './components/wizard/budget-wizard-page';
