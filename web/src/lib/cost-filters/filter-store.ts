import { getModuleConfig, type ModuleConfig } from './module-config';
import { upsertPreset, type FilterPreset } from './presets';
import type { FilterLogic, FlatFilter } from './types';
import { dropEmptyFilters, isEmptyFilter, validateFilter, validateFilterList } from './validation';

/** Spec 1 §4 "Filter system status". */
export type FilterStatus = 'idle' | 'loading' | 'success' | 'error';

/** Spec 1 §9 filter event names. */
export const FILTER_EVENTS = {
  added: 'filter_added',
  removed: 'filter_removed',
  updated: 'filter_updated',
  cleared: 'filters_cleared',
  logicChanged: 'logic_changed',
  presetLoaded: 'preset_loaded',
  presetSaved: 'preset_saved',
} as const;
export type FilterEventName = (typeof FILTER_EVENTS)[keyof typeof FILTER_EVENTS];
export interface FilterEvent {
  name: FilterEventName;
  detail: Record<string, unknown>;
}

export interface FilterStoreState {
  module: string;
  config: ModuleConfig;
  filters: FlatFilter[];
  logic: FilterLogic;
  status: FilterStatus;
  error: string | null;
  activePresetId: string | null;
  /** This module's presets. */
  presets: FilterPreset[];
}

export type FilterAction =
  | { type: 'add'; filter: FlatFilter }
  | { type: 'update'; id: string; changes: Partial<FlatFilter> }
  | { type: 'remove'; id: string }
  | { type: 'clear' }
  | { type: 'startLoading' }
  | { type: 'load'; filters: unknown }
  | { type: 'fail'; error: string }
  | { type: 'setLogic'; logic: string }
  | { type: 'savePreset'; preset: { id: string; name: string; description?: string }; now?: Date }
  | { type: 'deletePreset'; id: string }
  | { type: 'loadPreset'; id: string };

export interface FilterStoreResult {
  state: FilterStoreState;
  event?: FilterEvent;
}

export function createFilterStoreState(module: string, options: { filters?: FlatFilter[]; presets?: FilterPreset[] } = {}): FilterStoreState {
  return {
    module,
    config: getModuleConfig(module),
    filters: dropEmptyFilters(options.filters ?? []),
    logic: 'and',
    status: 'idle',
    error: null,
    activePresetId: null,
    presets: (options.presets ?? []).filter((p) => p.module === module),
  };
}

function fail(state: FilterStoreState, error: string): FilterStoreResult {
  return { state: { ...state, status: 'error', error } };
}

function logicError(state: FilterStoreState, logic: string | undefined): string | null {
  if (logic === undefined || (state.config.supportedLogic as ReadonlyArray<string>).includes(logic)) return null;
  return `Logic ${logic} not supported in ${state.module} module`;
}

/** A change of the filters: clears the active preset and the error (spec 1 §4). */
function changed(state: FilterStoreState, filters: FlatFilter[], event: FilterEvent, status: FilterStatus = state.status): FilterStoreResult {
  const nextStatus = status === 'error' ? 'idle' : status;
  return { state: { ...state, filters, activePresetId: null, error: null, status: nextStatus }, event };
}

/** The filter store of spec 1 §4/§5 as a pure function: the next state and the event to emit. */
export function filterStoreReducer(state: FilterStoreState, action: FilterAction): FilterStoreResult {
  switch (action.type) {
    case 'add': {
      if (isEmptyFilter(action.filter)) return { state };
      if (state.filters.length >= state.config.maxFilters) return fail(state, `Maximum ${state.config.maxFilters} filters allowed`);
      const error = validateFilter(action.filter) ?? logicError(state, action.filter.logic);
      if (error) return fail(state, error);
      return changed(state, [...state.filters, action.filter], { name: FILTER_EVENTS.added, detail: { filter: action.filter } });
    }
    case 'update': {
      const existing = state.filters.find((f) => f.id === action.id);
      if (!existing) return fail(state, 'Filter not found');
      const next = { ...existing, ...action.changes, id: existing.id };
      const error = validateFilter(next) ?? logicError(state, next.logic);
      if (error) return fail(state, error);
      const filters = state.filters.map((f) => (f.id === action.id ? next : f));
      return changed(state, filters, { name: FILTER_EVENTS.updated, detail: { filter: next } });
    }
    case 'remove': {
      if (!state.filters.some((f) => f.id === action.id)) return fail(state, 'Filter not found');
      const filters = state.filters.filter((f) => f.id !== action.id);
      return changed(state, filters, { name: FILTER_EVENTS.removed, detail: { id: action.id } });
    }
    case 'clear':
      return changed(state, [], { name: FILTER_EVENTS.cleared, detail: {} });
    case 'startLoading':
      return { state: { ...state, status: 'loading' } };
    case 'load': {
      if (!Array.isArray(action.filters)) return fail(state, 'Filters must be an array');
      const filters = dropEmptyFilters(action.filters as FlatFilter[]);
      const error = validateFilterList(filters, state.config)[0];
      if (error) return fail(state, error);
      return { state: { ...state, filters, activePresetId: null, error: null, status: 'success' } };
    }
    case 'fail':
      return fail(state, action.error);
    case 'setLogic': {
      const error = logicError(state, action.logic);
      if (error) return fail(state, error);
      const logic = action.logic as FilterLogic;
      return { state: { ...state, logic, error: null, status: state.status === 'error' ? 'idle' : state.status }, event: { name: FILTER_EVENTS.logicChanged, detail: { logic } } };
    }
    case 'savePreset': {
      if (state.filters.length === 0) return fail(state, 'No filters to save');
      const preset: FilterPreset = {
        ...action.preset,
        filters: state.filters,
        logic: state.logic,
        module: state.module,
        created: (action.now ?? new Date()).toISOString(),
      };
      return {
        state: { ...state, presets: upsertPreset(state.presets, preset), activePresetId: preset.id, error: null, status: 'success' },
        event: { name: FILTER_EVENTS.presetSaved, detail: { preset } },
      };
    }
    case 'deletePreset': {
      const presets = state.presets.filter((p) => p.id !== action.id);
      const activePresetId = state.activePresetId === action.id ? null : state.activePresetId;
      return { state: { ...state, presets, activePresetId } };
    }
    case 'loadPreset': {
      const preset = state.presets.find((p) => p.id === action.id);
      if (!preset) return { state };
      return {
        state: { ...state, filters: preset.filters, logic: preset.logic, activePresetId: preset.id, error: null, status: 'success' },
        event: { name: FILTER_EVENTS.presetLoaded, detail: { preset } },
      };
    }
  }
}
