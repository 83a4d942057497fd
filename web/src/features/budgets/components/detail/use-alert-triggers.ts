import { useEffect } from 'react';
import { useAlertHistory } from '../../api';
import type { BudgetAlertHistoryItem } from '../../model/types';

const NO_TRIGGERS: BudgetAlertHistoryItem[] = [];

/**
 * The budget's alert history for the Alerts panel; undefined while it loads. A failure is only
 * warned about and reads as an empty history (spec 2 §8).
 */
export function useAlertTriggers(budgetId: number): BudgetAlertHistoryItem[] | undefined {
  const history = useAlertHistory(budgetId);
  useEffect(() => {
    if (history.isError) console.warn('Failed to load alert history', history.error);
  }, [history.isError, history.error]);
  return history.data ?? (history.isError ? NO_TRIGGERS : undefined);
}
