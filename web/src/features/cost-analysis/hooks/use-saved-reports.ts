import { useMemo, useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@/lib/cost';
import type { SavedReport } from '../types';
import { SAVED_REPORTS_EVENT, listSavedReports } from '../utils/saved-reports';

function subscribe(onChange: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.savedReports) onChange();
  };
  window.addEventListener(SAVED_REPORTS_EVENT, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(SAVED_REPORTS_EVENT, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

function snapshot(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.savedReports);
  } catch {
    return null;
  }
}

/** The saved reports, newest first, following changes made here and in other tabs. */
export function useSavedReports(): SavedReport[] {
  const raw = useSyncExternalStore(subscribe, snapshot, () => null);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- re-read when the stored text changes
  return useMemo(() => listSavedReports(), [raw]);
}
