export { CostQueryPage } from './components/cost-query-page';
