export { InventoryPage } from './components/inventory-page';
