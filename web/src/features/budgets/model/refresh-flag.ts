/**
 * The session flag of spec 2 §4 "Refresh": set after a budget is saved or deleted; the dashboard
 * takes it when the window regains focus and then reloads budgets and summary.
 */
const REFRESH_FLAG_KEY = 'costscope.budgets.needsRefresh';

export function markBudgetsForRefresh(): void {
  try {
    sessionStorage.setItem(REFRESH_FLAG_KEY, 'true');
  } catch {
    // Storage unavailable (private mode, quota): the queries are invalidated anyway.
  }
}

/** True once after markBudgetsForRefresh(), then false until the next mark. */
export function takeBudgetsRefreshFlag(): boolean {
  try {
    const marked = sessionStorage.getItem(REFRESH_FLAG_KEY) === 'true';
    if (marked) sessionStorage.removeItem(REFRESH_FLAG_KEY);
    return marked;
  } catch {
    return false;
  }
}
