/** §9 storage keys, a state hook persisted under one of them, and value debouncing. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

/** Where the cost screens keep their state in localStorage (§9). */
export const STORAGE_KEYS = {
  timeRangePreset: 'cost_analysis_time_range_preset',
  customStart: 'cost_analysis_custom_start',
  customEnd: 'cost_analysis_custom_end',
  viewType: 'cost_analysis_view_type',
  displayType: 'cost_analysis_display_type',
  filterState: 'cost_analysis_filter_state',
  groupingState: 'cost_analysis_grouping_state',
  /** The Include (charge types) choice; the spec names no key for it. */
  costInclusions: 'cost_analysis_cost_inclusions',
  filterPresets: 'filter_presets',
  savedReports: 'cost_analysis_saved_reports',
  missionControlFilters: 'mission_control_filters',
} as const;

/** §9: the filter state is saved 1000 ms after its last change. */
export const SAVE_DELAY_MS = 1_000;

/** The JSON value stored under `key`, or `fallback` when absent, unreadable or storage is blocked. */
export function readStored<T>(key: string, fallback: T): T {
  try {
    const text = window.localStorage.getItem(key);
    return text === null ? fallback : (JSON.parse(text) as T);
  } catch {
    return fallback;
  }
}

/** Stores `value` as JSON under `key`; a full or blocked storage is ignored. */
export function writeStored(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the state lives on in memory.
  }
}

export function removeStored(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Storage disabled.
  }
}

/**
 * State that starts from localStorage[key] (JSON) and is written back `delayMs` after its last
 * change (0 = at once). A pending write is flushed when the component unmounts.
 */
export function usePersistentState<T>(key: string, initial: T, options?: { delayMs?: number }): [T, (value: T) => void] {
  const delayMs = options?.delayMs ?? 0;
  const [value, setValue] = useState<T>(() => readStored(key, initial));
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; value: T } | null>(null);

  const flush = useCallback(() => {
    if (!pending.current) return;
    clearTimeout(pending.current.timer);
    writeStored(key, pending.current.value);
    pending.current = null;
  }, [key]);

  useEffect(() => flush, [flush]);

  const update = useCallback(
    (next: T) => {
      setValue(next);
      if (delayMs <= 0) {
        writeStored(key, next);
        return;
      }
      if (pending.current) clearTimeout(pending.current.timer);
      const timer = setTimeout(() => {
        writeStored(key, next);
        pending.current = null;
      }, delayMs);
      pending.current = { timer, value: next };
    },
    [key, delayMs],
  );

  return [value, update];
}

/** `value` once it has not changed for `delayMs` (0 = at once, no extra render). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    if (delayMs <= 0) return undefined;
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return delayMs <= 0 ? value : debounced;
}

/** The same reference for as long as the value's JSON stays the same (for request bodies). */
export function useStableValue<T>(value: T): T {
  const json = JSON.stringify(value) ?? 'undefined';
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the JSON on purpose
  return useMemo(() => value, [json]);
}
