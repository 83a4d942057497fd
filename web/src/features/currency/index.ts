export { CurrencySettingsPage } from './components/currency-settings-page';
