/** The budget detail page's texts from spec 2 §2 "Budget detail" and §8, copied exactly. */
export const DETAIL_MESSAGES = {
  fetchFailed: 'Failed to fetch budget details. Please try again later.',
  notFound: 'No budget found.',
  configHistoryFailed: 'Failed to load configuration history. Please try again later.',
  triggeredWithoutHistory: 'Triggered (no history data)',
  withinBudget: 'Within Budget',
  /** A Forecasted alert of a budget without a forecast (fewer than 7 days of cost history). */
  noForecast: 'No forecast yet (not enough cost history)',
} as const;

/** Spec 2 §2: the name, or 'Budget #id' when the budget has none. */
export function budgetTitle(budget: { id: number; name?: string | null }): string {
  const name = budget.name?.trim();
  return name ? name : `Budget #${budget.id}`;
}
