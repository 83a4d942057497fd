import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS, usePersistentState, useDebouncedValue } from './storage';

describe('usePersistentState', () => {
  it('starts from the stored value', () => {
    localStorage.setItem(STORAGE_KEYS.viewType, JSON.stringify('monthly'));
    const { result } = renderHook(() => usePersistentState(STORAGE_KEYS.viewType, 'daily'));
    expect(result.current[0]).toBe('monthly');
  });

  it('starts from the initial value when nothing or something unreadable is stored', () => {
    localStorage.setItem(STORAGE_KEYS.displayType, '{not json');
    const { result } = renderHook(() => usePersistentState(STORAGE_KEYS.displayType, 'currency'));
    expect(result.current[0]).toBe('currency');
  });

  it('saves 1000 ms after the last change', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => usePersistentState<string[]>(STORAGE_KEYS.filterState, [], { delayMs: 1000 }));
    act(() => result.current[1](['a']));
    act(() => vi.advanceTimersByTime(600));
    act(() => result.current[1](['a', 'b']));
    expect(result.current[0]).toEqual(['a', 'b']);
    act(() => vi.advanceTimersByTime(900));
    expect(localStorage.getItem(STORAGE_KEYS.filterState)).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(localStorage.getItem(STORAGE_KEYS.filterState)).toBe('["a","b"]');
  });

  it('writes a pending change when the component goes away', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => usePersistentState(STORAGE_KEYS.groupingState, 0, { delayMs: 1000 }));
    act(() => result.current[1](7));
    unmount();
    expect(localStorage.getItem(STORAGE_KEYS.groupingState)).toBe('7');
  });

  it('saves at once without a delay', () => {
    const { result } = renderHook(() => usePersistentState(STORAGE_KEYS.timeRangePreset, 'thisMonth'));
    act(() => result.current[1]('lastMonth'));
    expect(localStorage.getItem(STORAGE_KEYS.timeRangePreset)).toBe('"lastMonth"');
  });

  it('keeps the filter presets under "filter_presets"', () => {
    expect(STORAGE_KEYS.filterPresets).toBe('filter_presets');
  });
});

describe('useDebouncedValue', () => {
  it('passes the value on once it has been still for the delay', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 300), { initialProps: { value: 'a' } });
    rerender({ value: 'ab' });
    act(() => vi.advanceTimersByTime(200));
    rerender({ value: 'abc' });
    act(() => vi.advanceTimersByTime(200));
    expect(result.current).toBe('a');
    act(() => vi.advanceTimersByTime(100));
    expect(result.current).toBe('abc');
  });
});
