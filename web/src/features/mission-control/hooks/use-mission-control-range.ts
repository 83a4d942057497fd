import { useCallback, useMemo } from 'react';
import { DEFAULT_PRESET, resolveTimeRange, usePersistentState, type TimeRange } from '@/lib/cost';

/**
 * Where Mission Control keeps its period (the §9 time range keys, for this screen: choosing a
 * period here does not change the cost analysis screen's period).
 */
export const MISSION_CONTROL_RANGE_KEYS = {
  preset: 'mission_control_time_range_preset',
  customStart: 'mission_control_custom_start',
  customEnd: 'mission_control_custom_end',
} as const;

/** The dashboard's period: This Month by default (§9), kept in localStorage. */
export function useMissionControlRange(now?: Date): [TimeRange, (range: TimeRange) => void] {
  const [preset, setPreset] = usePersistentState<string>(MISSION_CONTROL_RANGE_KEYS.preset, DEFAULT_PRESET);
  const [customStart, setCustomStart] = usePersistentState<string | null>(MISSION_CONTROL_RANGE_KEYS.customStart, null);
  const [customEnd, setCustomEnd] = usePersistentState<string | null>(MISSION_CONTROL_RANGE_KEYS.customEnd, null);

  const day = (now ?? new Date()).toISOString().slice(0, 10);
  const range = useMemo(
    () =>
      resolveTimeRange(
        typeof preset === 'string' ? preset : DEFAULT_PRESET,
        preset === 'custom' ? { startDate: customStart ?? undefined, endDate: customEnd ?? undefined } : undefined,
        now,
      ),
    // Keyed on the UTC day rather than `now`, so "This Month" moves on at midnight but a render
    // within the day keeps the same range.
    [preset, customStart, customEnd, day],
  );

  const setRange = useCallback(
    (next: TimeRange) => {
      setPreset(next.preset);
      // §4: a non-custom preset clears the custom dates.
      setCustomStart(next.preset === 'custom' ? (next.startDate ?? null) : null);
      setCustomEnd(next.preset === 'custom' ? (next.endDate ?? null) : null);
    },
    [setPreset, setCustomStart, setCustomEnd],
  );

  return [range, setRange];
}
