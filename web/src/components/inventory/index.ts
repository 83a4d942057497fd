export {
  InventoryExplorer,
  LINKED_RESOURCE_FAILED,
  LINKED_RESOURCE_NOT_FOUND,
  RESOURCES_FAILED_MESSAGE,
  type InventoryExplorerProps,
} from './inventory-explorer';
export { resourceFromSearch, resourceHref, type ResourceKeyRef } from './resource-link';
export { DiscoverButton, DISCOVER_LABEL, DEMO_DISCOVERY_TEXT } from './discover-button';
export { DISCOVERY_MESSAGES, DISCOVERY_COOLDOWN_MS, DISCOVERY_TOAST_MS, isDemoCustomer } from './discovery';
export { inventoryApi, inventoryKeys } from './api';
export { TagsTable } from './resource-panel';
export { typeLabel, formatTime } from './format';
export * from './constants';
export type * from './types';
export { presetWindow, defaultFilters, type TimeWindow } from './filters';
