import { useCallback, useMemo, useRef, useState } from 'react';
import { createFilterStoreState, filterStoreReducer, type FilterAction, type FilterEvent, type FilterStoreState } from './filter-store';
import { readPresets, writePresets } from './presets';
import type { FilterLogic, FlatFilter } from './types';

export interface FilterStore extends FilterStoreState {
  add(filter: FlatFilter): void;
  update(id: string, changes: Partial<FlatFilter>): void;
  remove(id: string): void;
  clear(): void;
  load(filters: unknown): void;
  setLogic(logic: FilterLogic | string): void;
  savePreset(preset: { id: string; name: string; description?: string }): void;
  deletePreset(id: string): void;
  loadPreset(id: string): void;
}

/**
 * The filter store of one module (spec 1 §4/§5): its filters within the module's limits, the
 * status, the first error, and the presets saved under localStorage "filter_presets".
 */
export function useFilterStore(module: string, options: { initialFilters?: FlatFilter[]; onEvent?: (event: FilterEvent) => void } = {}): FilterStore {
  const [state, setState] = useState(() => createFilterStoreState(module, { filters: options.initialFilters, presets: readPresets() }));
  const stateRef = useRef(state);
  const onEventRef = useRef(options.onEvent);
  onEventRef.current = options.onEvent;

  const dispatch = useCallback((action: FilterAction) => {
    const previous = stateRef.current;
    const { state: next, event } = filterStoreReducer(previous, action);
    stateRef.current = next;
    setState(next);
    if (next.presets !== previous.presets) {
      const others = readPresets().filter((p) => p.module !== next.module);
      writePresets([...others, ...next.presets]);
    }
    if (event) onEventRef.current?.(event);
  }, []);

  return useMemo(
    () => ({
      ...state,
      add: (filter) => dispatch({ type: 'add', filter }),
      update: (id, changes) => dispatch({ type: 'update', id, changes }),
      remove: (id) => dispatch({ type: 'remove', id }),
      clear: () => dispatch({ type: 'clear' }),
      load: (filters) => dispatch({ type: 'load', filters }),
      setLogic: (logic) => dispatch({ type: 'setLogic', logic }),
      savePreset: (preset) => dispatch({ type: 'savePreset', preset }),
      deletePreset: (id) => dispatch({ type: 'deletePreset', id }),
      loadPreset: (id) => dispatch({ type: 'loadPreset', id }),
    }),
    [state, dispatch],
  );
}
