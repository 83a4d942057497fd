import { Box, Chip, LinearProgress, List, ListItem, ListItemButton, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { CostErrorAlert } from '@/components/cost';
import { formatCurrency, formatShare } from '@/lib/cost';
import { useMissionControlBudgets } from '../api/use-mission-control-budgets';
import { BUDGETS_ERROR, NO_ACTIVE_BUDGETS } from '../constants';
import {
  BUDGET_HEALTH_LIST_SIZE,
  countByStatus,
  periodAggregates,
  topBudgets,
  totalAggregate,
  type BudgetAggregate,
  type BudgetPeriod,
  type BudgetStatus,
  type DashboardBudget,
} from '../utils/budget-health';
import { barWidth } from '../utils/spend-cards';
import { DashboardCard } from './dashboard-card';
import { ViewToggle, type SectionView } from './view-toggle';

const STATUS_LABEL: Record<BudgetStatus, string> = { healthy: 'Healthy', warning: 'Warning', critical: 'Critical' };
const STATUS_COLOR: Record<BudgetStatus, 'success' | 'warning' | 'error'> = {
  healthy: 'success',
  warning: 'warning',
  critical: 'error',
};
const PERIOD_LABEL: Record<BudgetPeriod, string> = { monthly: 'Monthly', quarterly: 'Quarterly', yearly: 'Yearly' };

const dollars = (amount: number) => formatCurrency(amount, { decimals: 0 });

function daysRemainingLabel(days: number): string {
  return days === 1 ? '1 day remaining' : `${days} days remaining`;
}

/** A bar of percent used, capped at 100, in the colour of its status (which it also names). */
function UsageBar({ label, percent, status }: { label: string; percent: number; status: BudgetStatus }) {
  return (
    <LinearProgress
      variant="determinate"
      value={barWidth(percent)}
      color={STATUS_COLOR[status]}
      aria-label={label}
      aria-valuetext={`${formatShare(percent)}, ${STATUS_LABEL[status]}`}
      sx={{ height: 8, borderRadius: 4, my: 0.5 }}
    />
  );
}

function CountTile({ label, count, color }: { label: string; count: number; color?: string }) {
  return (
    <Box component="li" aria-label={`${count} ${label}`} sx={{ flex: 1, minWidth: 64 }}>
      <Typography variant="h5" component="p" fontWeight={600} color={color}>
        {count}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

function AggregateRow({ label, aggregate }: { label: string; aggregate: BudgetAggregate }) {
  return (
    <Box>
      <Stack direction="row" spacing={1} alignItems="baseline" justifyContent="space-between">
        <Typography variant="body2" fontWeight={600}>
          {label}
        </Typography>
        <Typography variant="body2" color={`${STATUS_COLOR[aggregate.status]}.main`}>
          {formatShare(aggregate.percentUsed)}
        </Typography>
      </Stack>
      <UsageBar label={`${label} used`} percent={aggregate.percentUsed} status={aggregate.status} />
      <Typography variant="caption" color="text.secondary">
        {dollars(aggregate.spent)} spent of {dollars(aggregate.amount)}
      </Typography>
    </Box>
  );
}

/**
 * Overview: the budgets per status (per-budget bands 70/80), the budgets with an alert reached
 * when the summary answered, and total and per-period budget against spend (aggregate bands 80/90).
 */
function BudgetOverview({ budgets, alertsBudgets }: { budgets: DashboardBudget[]; alertsBudgets: number | undefined }) {
  const counts = countByStatus(budgets);
  return (
    <Stack spacing={2}>
      <Stack component="ul" direction="row" spacing={1} aria-label="Budgets by status" sx={{ m: 0, p: 0, listStyle: 'none' }}>
        <CountTile label="Total" count={budgets.length} />
        {(['healthy', 'warning', 'critical'] as const).map((status) => (
          <CountTile key={status} label={STATUS_LABEL[status]} count={counts[status]} color={`${STATUS_COLOR[status]}.main`} />
        ))}
        {alertsBudgets !== undefined ? <CountTile label="With alerts" count={alertsBudgets} /> : null}
      </Stack>
      <AggregateRow label="Total budget" aggregate={totalAggregate(budgets)} />
      {periodAggregates(budgets).map((aggregate) => (
        <AggregateRow key={aggregate.period} label={`${PERIOD_LABEL[aggregate.period]} budgets`} aggregate={aggregate} />
      ))}
    </Stack>
  );
}

/** Detail: the top 6 budgets by severity, then percent used; each opens its budget page. */
function BudgetHealthList({ budgets }: { budgets: DashboardBudget[] }) {
  const top = topBudgets(budgets);
  return (
    <>
      {budgets.length > BUDGET_HEALTH_LIST_SIZE ? (
        <Typography variant="caption" color="text.secondary" component="p">
          Showing the {top.length} most at-risk of {budgets.length} budgets
        </Typography>
      ) : null}
      <List aria-label="Budget health" disablePadding>
        {top.map((budget) => (
          <ListItem key={budget.id} disablePadding>
            <ListItemButton component={RouterLink} to={`/budgets/view/${encodeURIComponent(budget.id)}`} sx={{ px: 1, borderRadius: 1 }}>
              <Box sx={{ width: '100%' }}>
                <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between">
                  <Typography variant="body2" fontWeight={600} noWrap>
                    {budget.name}
                  </Typography>
                  <Chip size="small" variant="outlined" color={STATUS_COLOR[budget.status]} label={STATUS_LABEL[budget.status]} />
                </Stack>
                <UsageBar label={`${budget.name} used`} percent={budget.percentUsed} status={budget.status} />
                <Stack direction="row" spacing={1} justifyContent="space-between">
                  <Typography variant="caption" color="text.secondary">
                    {dollars(budget.spent)} / {dollars(budget.amount)} ({formatShare(budget.percentUsed)})
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {daysRemainingLabel(budget.daysRemaining)}
                  </Typography>
                </Stack>
              </Box>
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </>
  );
}

/** The budget overview of Mission Control (spec 1 §2.10, §3, §8, §9). */
export function BudgetOverviewSection() {
  const [view, setView] = useState<SectionView>('overview');
  const { budgets, alertsBudgets, error, refetch } = useMissionControlBudgets();

  let body;
  if (error) {
    body = <CostErrorAlert title={BUDGETS_ERROR} error={error} onRetry={refetch} />;
  } else if (!budgets) {
    body = (
      <Stack spacing={1} aria-busy="true" aria-label="Loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={36} />
        ))}
      </Stack>
    );
  } else if (budgets.length === 0) {
    body = (
      <Typography color="text.secondary" role="status">
        {NO_ACTIVE_BUDGETS}
      </Typography>
    );
  } else {
    body = view === 'overview' ? <BudgetOverview budgets={budgets} alertsBudgets={alertsBudgets} /> : <BudgetHealthList budgets={budgets} />;
  }

  return (
    <DashboardCard title="Budget Overview" action={<ViewToggle label="Budget view" value={view} onChange={setView} />}>
      {body}
    </DashboardCard>
  );
}
