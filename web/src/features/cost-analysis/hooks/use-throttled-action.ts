import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Runs `action` at most once per `intervalMs`; calls in between are dropped. `cooling` is true
 * while a new call would be dropped (to disable the button that triggers it).
 */
export function useThrottledAction(action: () => void, intervalMs: number): { run(): void; cooling: boolean } {
  const last = useRef(-Infinity);
  const [cooling, setCooling] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const actionRef = useRef(action);
  actionRef.current = action;

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const run = useCallback(() => {
    const now = Date.now();
    if (now - last.current < intervalMs) return;
    last.current = now;
    actionRef.current();
    setCooling(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCooling(false), intervalMs);
  }, [intervalMs]);

  return { run, cooling };
}
