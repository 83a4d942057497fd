import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { CompareState } from '../types';
import { decodeCompareSearch, encodeCompareSearch } from '../utils/compare-state';

/**
 * The Compare page's state, kept in the query string only (a link opens the same comparison
 * everywhere). A plain visit gets the default state written into its address.
 */
export function useCompareState(): [CompareState, (next: CompareState) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => decodeCompareSearch(location.search), [location.search]);
  const search = useRef(location.search);
  search.current = location.search;

  const setState = useCallback(
    (next: CompareState) => {
      const encoded = encodeCompareSearch(next);
      if (encoded !== search.current) navigate({ search: encoded }, { replace: true });
    },
    [navigate],
  );

  useEffect(() => {
    if (!search.current) setState(decodeCompareSearch(''));
  }, [setState]);

  return [state, setState];
}
