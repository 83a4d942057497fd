export { BillingDataPage } from './components/billing-data-page';
