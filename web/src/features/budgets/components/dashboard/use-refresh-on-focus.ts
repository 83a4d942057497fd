import { useEffect, useRef } from 'react';
import { takeBudgetsRefreshFlag } from '../../model/refresh-flag';

/**
 * spec 2 §4 Refresh: when the window regains focus and the session flag (set after a save or a
 * delete) is up, run `refresh` and clear the flag.
 */
export function useRefreshOnFocus(refresh: () => void) {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  }, [refresh]);

  useEffect(() => {
    const onFocus = () => {
      if (takeBudgetsRefreshFlag()) latest.current();
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
}
