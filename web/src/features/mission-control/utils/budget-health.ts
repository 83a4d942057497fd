/**
 * Budget health rules of the dashboard widgets (spec 1 §3 "Budget (as used by dashboard
 * widgets)", §2.10, §9). Costscope's server answers each budget's percent used, days remaining
 * and Mission Control status (bands 70/80, compared exactly on the cents; docs/API-BUDGETS.md):
 * the widgets show those. Only a budget list without them (§3 allows other shapes) is read with
 * the rules below.
 */

export type BudgetPeriod = 'monthly' | 'quarterly' | 'yearly';
export type BudgetStatus = 'healthy' | 'warning' | 'critical';

/** §9 per budget: warning from 70 % used, critical from 80 %. */
export const BUDGET_WARNING_FROM = 70;
export const BUDGET_CRITICAL_FROM = 80;
/** §9 period aggregates: warning from 80 %, critical from 90 %. */
export const AGGREGATE_WARNING_FROM = 80;
export const AGGREGATE_CRITICAL_FROM = 90;
/** §2.10: the budget health list shows the top 6 budgets. */
export const BUDGET_HEALTH_LIST_SIZE = 6;

export interface DashboardBudget {
  id: string;
  name: string;
  period: BudgetPeriod;
  amount: number;
  spent: number;
  /** The server's readings, when the list carries them (Costscope's always does). */
  server?: { percentUsed: number; daysRemaining: number; status: BudgetStatus };
}

export interface BudgetHealth extends DashboardBudget {
  percentUsed: number;
  daysRemaining: number;
  status: BudgetStatus;
}

function numberField(raw: Record<string, unknown>, names: string[]): number | undefined {
  for (const name of names) {
    const value = raw[name];
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number === 'number' && Number.isFinite(number)) return number;
  }
  return undefined;
}

function periodOf(value: unknown): BudgetPeriod | undefined {
  const period = typeof value === 'string' ? value.toLowerCase() : '';
  return period === 'monthly' || period === 'quarterly' || period === 'yearly' ? period : undefined;
}

/**
 * A budget as the widgets read it (§3): amount from amount, limit, budget or budgetAmount; spent
 * from spent, currentSpent, current_spent or usage. Null when it has no id, period or amount.
 */
export function readDashboardBudget(raw: unknown): DashboardBudget | null {
  if (!raw || typeof raw !== 'object') return null;
  const record = raw as Record<string, unknown>;
  const id = record.id;
  const period = periodOf(record.period);
  const amount = numberField(record, ['amount', 'limit', 'budget', 'budgetAmount']);
  if ((typeof id !== 'string' && typeof id !== 'number') || !period || amount === undefined) return null;
  const budget: DashboardBudget = {
    id: String(id),
    name: typeof record.name === 'string' ? record.name : String(id),
    period,
    amount,
    spent: numberField(record, ['spent', 'currentSpent', 'current_spent', 'usage']) ?? 0,
  };
  const server = serverReadings(record);
  return server ? { ...budget, server } : budget;
}

/** Costscope's `percentUsed`, `daysRemaining` and `missionControlStatus`, when all are there. */
function serverReadings(record: Record<string, unknown>): DashboardBudget['server'] {
  const percent = numberField(record, ['percentUsed']);
  const days = numberField(record, ['daysRemaining']);
  const status = record.missionControlStatus;
  if (percent === undefined || days === undefined) return undefined;
  if (status !== 'healthy' && status !== 'warning' && status !== 'critical') return undefined;
  return { percentUsed: percent, daysRemaining: days, status };
}

/** §7: the budget list may be a bare array or wrapped in `data` or `budgets`. */
export function budgetList(answer: unknown): DashboardBudget[] {
  const list = Array.isArray(answer)
    ? answer
    : answer && typeof answer === 'object'
      ? ((answer as { data?: unknown }).data ?? (answer as { budgets?: unknown }).budgets)
      : undefined;
  if (!Array.isArray(list)) return [];
  return list.map(readDashboardBudget).filter((budget): budget is DashboardBudget => budget !== null);
}

/** Spent as a percent of the amount; 0 for a budget of 0 with nothing spent, else 100+ when over. */
export function percentUsed(budget: Pick<DashboardBudget, 'amount' | 'spent'>): number {
  if (budget.amount > 0) return (budget.spent / budget.amount) * 100;
  return budget.spent > 0 ? 100 : 0;
}

/** §9 per budget: healthy below 70 %, warning 70 % to under 80 %, critical from 80 %. */
export function budgetStatus(percent: number): BudgetStatus {
  if (percent >= BUDGET_CRITICAL_FROM) return 'critical';
  if (percent >= BUDGET_WARNING_FROM) return 'warning';
  return 'healthy';
}

/** §9 period aggregates (the budgets of one period together): warning from 80 %, critical from 90 %. */
export function aggregateStatus(percent: number): BudgetStatus {
  if (percent >= AGGREGATE_CRITICAL_FROM) return 'critical';
  if (percent >= AGGREGATE_WARNING_FROM) return 'warning';
  return 'healthy';
}

/** The first millisecond after the month, quarter or year that holds `now` (UTC). */
export function periodEnd(period: BudgetPeriod, now: Date): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  if (period === 'monthly') return new Date(Date.UTC(year, month + 1, 1));
  if (period === 'quarterly') return new Date(Date.UTC(year, Math.floor(month / 3) * 3 + 3, 1));
  return new Date(Date.UTC(year + 1, 0, 1));
}

const DAY_MS = 86_400_000;

/**
 * Days left in the budget's current month, quarter or year (UTC), today included: 8 on Nov 23
 * for a monthly budget, 1 on the period's last day.
 */
export function daysRemaining(period: BudgetPeriod, now: Date = new Date()): number {
  return Math.ceil((periodEnd(period, now).getTime() - now.getTime()) / DAY_MS);
}

export function budgetHealth(budget: DashboardBudget, now: Date = new Date()): BudgetHealth {
  const { server, ...figures } = budget;
  if (server) return { ...figures, ...server };
  const percent = percentUsed(budget);
  return { ...figures, percentUsed: percent, daysRemaining: daysRemaining(budget.period, now), status: budgetStatus(percent) };
}

const SEVERITY: Record<BudgetStatus, number> = { critical: 0, warning: 1, healthy: 2 };

/** §2.10: the top 6 budgets, most severe first, then by percent used (highest first). */
export function topBudgets(budgets: ReadonlyArray<DashboardBudget>, now: Date = new Date(), size = BUDGET_HEALTH_LIST_SIZE): BudgetHealth[] {
  return budgets
    .map((budget) => budgetHealth(budget, now))
    .sort((a, b) => SEVERITY[a.status] - SEVERITY[b.status] || b.percentUsed - a.percentUsed)
    .slice(0, size);
}

export interface BudgetAggregate {
  amount: number;
  spent: number;
  percentUsed: number;
  status: BudgetStatus;
}

export interface PeriodAggregate extends BudgetAggregate {
  period: BudgetPeriod;
}

/** Budgets added up, with the aggregate thresholds (80 % / 90 %). */
export function totalAggregate(budgets: ReadonlyArray<DashboardBudget>): BudgetAggregate {
  const amount = budgets.reduce((sum, budget) => sum + budget.amount, 0);
  const spent = budgets.reduce((sum, budget) => sum + budget.spent, 0);
  const percent = percentUsed({ amount, spent });
  return { amount, spent, percentUsed: percent, status: aggregateStatus(percent) };
}

/** The budgets of each period added up (periods without budgets left out). */
export function periodAggregates(budgets: ReadonlyArray<DashboardBudget>): PeriodAggregate[] {
  const periods: BudgetPeriod[] = ['monthly', 'quarterly', 'yearly'];
  return periods.flatMap((period) => {
    const inPeriod = budgets.filter((budget) => budget.period === period);
    return inPeriod.length === 0 ? [] : [{ period, ...totalAggregate(inPeriod) }];
  });
}

/** How many budgets are healthy, warning and critical by the per-budget bands (70 % / 80 %). */
export function countByStatus(budgets: ReadonlyArray<DashboardBudget>): Record<BudgetStatus, number> {
  const counts: Record<BudgetStatus, number> = { healthy: 0, warning: 0, critical: 0 };
  for (const budget of budgets) counts[budget.server?.status ?? budgetStatus(percentUsed(budget))] += 1;
  return counts;
}
