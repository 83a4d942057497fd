import type { FilterLogic } from './types';

export type FilterModule = 'cost_analysis' | 'budget' | 'tags' | 'integrations' | (string & {});

/** Spec 1 §3 "Module configuration" with the limits of §9. */
export interface ModuleConfig {
  maxFilters: number;
  supportedLogic: ReadonlyArray<FilterLogic>;
  persistence: boolean;
  savedFilters: boolean;
}

export const MODULE_CONFIGS: Readonly<Record<string, ModuleConfig>> = {
  cost_analysis: { maxFilters: 10, supportedLogic: ['and', 'or'], persistence: true, savedFilters: true },
  budget: { maxFilters: 5, supportedLogic: ['and', 'or'], persistence: false, savedFilters: false },
  tags: { maxFilters: 3, supportedLogic: ['and', 'or'], persistence: false, savedFilters: false },
  integrations: { maxFilters: 2, supportedLogic: ['and'], persistence: false, savedFilters: false },
  // The Cost Query page (spec 2 §5 cost filter builder over POST /v1/query, docs/WEB-COST.md).
  cost_query: { maxFilters: 10, supportedLogic: ['and', 'or'], persistence: false, savedFilters: true },
};

/** A module without a configuration gets at most 10 filters (spec 1 §5). */
export const DEFAULT_MODULE_CONFIG: ModuleConfig = {
  maxFilters: 10,
  supportedLogic: ['and', 'or'],
  persistence: false,
  savedFilters: false,
};

export function getModuleConfig(module: string): ModuleConfig {
  return Object.prototype.hasOwnProperty.call(MODULE_CONFIGS, module) ? MODULE_CONFIGS[module] : DEFAULT_MODULE_CONFIG;
}
