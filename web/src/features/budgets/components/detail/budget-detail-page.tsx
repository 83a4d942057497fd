import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useMatch, useNavigate, useParams } from 'react-router';
import { isApiError } from '@/api/api-error';
import { CurrencyNotice } from '@/components/cost';
import { useBudget } from '../../api';
import type { Budget } from '../../model/types';
import { BudgetForecast } from '../card/budget-forecast';
import { DeleteBudgetDialog } from '../card/delete-budget-dialog';
import { useCanManageBudgets } from '../card/use-can-manage-budgets';
import { BudgetSpendingSection } from '../spending/budget-spending-section';
import { BudgetAlertsPanel } from './budget-alerts-panel';
import { BudgetBreadcrumb } from './budget-breadcrumb';
import { BudgetDetailHeader } from './budget-detail-header';
import { BudgetFiltersPanel } from './budget-filters-panel';
import { BudgetMetrics } from './budget-metrics';
import { BudgetProgress } from './budget-progress';
import { ConfigHistoryPanel } from './config-history-panel';
import { DETAIL_MESSAGES, budgetTitle } from './detail-messages';
import { useAlertTriggers } from './use-alert-triggers';

/** The id of the Resources table section (components/spending), the target of …/resources. */
const RESOURCES_SECTION_ID = 'budget-resources';

/** The route's :id as a budget id; anything but a positive whole number is no budget. */
export function parseBudgetId(param: string | undefined): number | undefined {
  if (!param || !/^\d+$/.test(param)) return undefined;
  const id = Number(param);
  return id > 0 && Number.isSafeInteger(id) ? id : undefined;
}

/**
 * Spec 2 §2 "Budget detail": /budgets/view/:id, …/details and …/resources (which scrolls the
 * resources section into view).
 */
export function BudgetDetailPage() {
  const budgetId = parseBudgetId(useParams().id);
  const budget = useBudget(budgetId);

  if (budgetId === undefined) return <DetailProblem severity="warning" message={DETAIL_MESSAGES.notFound} />;
  // A failed background refetch (e.g. the one that follows a delete) keeps the loaded budget on screen.
  if (budget.data) return <BudgetDetail budget={budget.data} />;
  if (budget.isError && isApiError(budget.error) && budget.error.status === 404) {
    return <DetailProblem severity="warning" message={DETAIL_MESSAGES.notFound} />;
  }
  if (budget.isError) {
    return <DetailProblem severity="error" message={DETAIL_MESSAGES.fetchFailed} onRetry={() => budget.refetch()} />;
  }
  return (
    <Box>
      <BudgetBreadcrumb current="Budget details" />
      <Stack alignItems="center" spacing={2} sx={{ py: 8 }}>
        <CircularProgress aria-label="Loading budget details" />
        <Typography color="text.secondary">Loading budget details...</Typography>
      </Stack>
    </Box>
  );
}

function DetailProblem({ severity, message, onRetry }: { severity: 'warning' | 'error'; message: string; onRetry?(): void }) {
  return (
    <Box>
      <BudgetBreadcrumb current="Budget details" />
      <Alert
        severity={severity}
        action={
          onRetry ? (
            <Button color="inherit" size="small" onClick={onRetry}>
              Retry
            </Button>
          ) : undefined
        }
      >
        {message}
      </Alert>
    </Box>
  );
}

function BudgetDetail({ budget }: { budget: Budget }) {
  const navigate = useNavigate();
  const canManage = useCanManageBudgets();
  const alertHistory = useAlertTriggers(budget.id);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const onResourcesRoute = useMatch('/budgets/view/:id/resources') !== null;
  const title = budgetTitle(budget);
  const percent = budget.percentUsed;

  useEffect(() => {
    if (onResourcesRoute) {
      document.getElementById(RESOURCES_SECTION_ID)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }, [onResourcesRoute, budget.id]);

  return (
    <Box>
      <BudgetBreadcrumb current={title} />
      <BudgetDetailHeader
        title={title}
        status={budget.detailStatus}
        canManage={canManage}
        onEdit={() => navigate(`/budgets/edit/${budget.id}`)}
        onDelete={() => setDeleteOpen(true)}
      />
      <CurrencyNotice answer={budget} />
      <Stack spacing={3}>
        <BudgetMetrics amount={budget.amount} spent={budget.currentSpent} percent={percent} currency={budget.currency} />
        <BudgetForecast budget={budget} />
        <BudgetProgress budget={budget} />
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <BudgetFiltersPanel filters={budget.filters} />
          <BudgetAlertsPanel budget={budget} history={alertHistory} />
        </Box>
        <BudgetSpendingSection budget={budget} />
        <ConfigHistoryPanel budgetId={budget.id} />
      </Stack>
      <DeleteBudgetDialog
        budget={budget}
        open={deleteOpen}
        onClose={() => setDeleteOpen(false)}
        onDeleted={() => navigate('/budgets')}
      />
    </Box>
  );
}
