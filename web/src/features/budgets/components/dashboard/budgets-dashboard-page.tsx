import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import TableRowsOutlinedIcon from '@mui/icons-material/TableRowsOutlined';
import { Alert, Box, Breadcrumbs, Button, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useBudgets, useBudgetSummary } from '../../api';
import {
  DEFAULT_SORT,
  EMPTY_SUMMARY,
  nextSort,
  toggleStatusFilter,
  visibleBudgets,
  type BudgetSort,
  type StatusFilter,
} from '../../model/dashboard';
import type { Budget } from '../../model/types';
import { ManageTooltip } from '../card/manage-tooltip';
import { useCanManageBudgets } from '../card/use-can-manage-budgets';
import { AboutBudgetsCard } from './about-budgets-card';
import { BudgetGrid } from './budget-grid';
import { BudgetsTable } from './budgets-table';
import { DashboardEmptyState, type EmptyReason } from './dashboard-empty-state';
import { DashboardToolbar } from './dashboard-toolbar';
import { SummaryStrip } from './summary-strip';
import { useRefreshOnFocus } from './use-refresh-on-focus';

export const FETCH_BUDGETS_FAILED = 'Failed to fetch budgets. Please try again later.';

/** `?view=detail` selects detail mode, so that the browser's back button leaves it. */
const DETAIL_MODE_PARAM = { view: 'detail' } as const;

/**
 * /budgets (spec 2 §2 "Budgets dashboard"). Overview mode shows the budgets as cards; detail
 * mode shows the same budgets — searched, filtered and sorted alike — as a table with more
 * columns (see BudgetsTable), under the breadcrumb 'Cost Budgets' with 'Back to All Budgets'.
 */
export function BudgetsDashboardPage() {
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const detailMode = searchParams.get('view') === DETAIL_MODE_PARAM.view;
  const canManage = useCanManageBudgets();
  const budgets = useBudgets();
  const summary = useBudgetSummary();

  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter | null>(null);
  const [sort, setSort] = useState<BudgetSort>(DEFAULT_SORT);
  const [errorDismissedAt, setErrorDismissedAt] = useState(0);

  useRefreshOnFocus(() => {
    void budgets.refetch();
    void summary.refetch();
  });

  // A new failure shows the banner again after an earlier one was dismissed.
  const showError = budgets.isError && budgets.errorUpdatedAt > errorDismissedAt;
  // spec 2 §8: on failure the list is emptied; §7: the summary falls back to zeros.
  const allBudgets: Budget[] = budgets.isError ? [] : (budgets.data ?? []);
  const counts = summary.isError ? EMPTY_SUMMARY : (summary.data ?? null);
  const shown = visibleBudgets(allBudgets, { search, status, sort });
  // TOTAL BUDGETS (null) shows all budgets; a status toggles its filter.
  const selectStatus = (clicked: StatusFilter | null) =>
    setStatus(clicked === null ? null : toggleStatusFilter(status, clicked));

  return (
    <Box>
      {detailMode ? (
        <Breadcrumbs aria-label="breadcrumb" separator={<NavigateNextIcon fontSize="small" />} sx={{ mb: 2 }}>
          <Link component={RouterLink} to="/budgets" underline="hover" color="inherit">
            Cost Budgets
          </Link>
          <Typography color="text.primary" aria-current="page">
            Detailed View
          </Typography>
        </Breadcrumbs>
      ) : null}
      <PageHeader
        title="Cost Budgets"
        subtitle="Track and manage your cloud spending with customized budgets"
        actions={
          <Stack direction="row" spacing={1}>
            {detailMode ? (
              <Button variant="outlined" startIcon={<ArrowBackIcon />} onClick={() => setSearchParams({})}>
                Back to All Budgets
              </Button>
            ) : null}
            <ManageTooltip canManage={canManage}>
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                disabled={!canManage}
                onClick={() => navigate('/budgets/create')}
              >
                Create Budget
              </Button>
            </ManageTooltip>
          </Stack>
        }
      />

      {showError ? (
        <Alert severity="error" onClose={() => setErrorDismissedAt(Date.now())} sx={{ mb: 3 }}>
          {FETCH_BUDGETS_FAILED}
        </Alert>
      ) : null}

      <SummaryStrip summary={counts} active={status} onSelect={selectStatus} />
      {detailMode ? null : <AboutBudgetsCard />}

      <DashboardToolbar
        search={search}
        onSearchChange={setSearch}
        sort={sort}
        onSortField={(field) => setSort(nextSort(sort, field))}
        onToggleDirection={() => setSort({ ...sort, direction: sort.direction === 'asc' ? 'desc' : 'asc' })}
        status={status}
        onClearStatus={() => setStatus(null)}
        actions={
          detailMode ? null : (
            <Button startIcon={<TableRowsOutlinedIcon />} onClick={() => setSearchParams(DETAIL_MODE_PARAM)}>
              Detailed View
            </Button>
          )
        }
      />

      {budgets.isPending ? (
        <Stack direction="row" spacing={1.5} alignItems="center" justifyContent="center" sx={{ py: 6 }} role="status">
          <CircularProgress size={24} />
          <Typography color="text.secondary">Loading budgets...</Typography>
        </Stack>
      ) : budgets.isError ? null : shown.length === 0 ? (
        <DashboardEmptyState reason={emptyReason(allBudgets, status, search)} />
      ) : detailMode ? (
        <BudgetsTable budgets={shown} />
      ) : (
        <BudgetGrid budgets={shown} canManage={canManage} />
      )}
    </Box>
  );
}

/** Why nothing shows: no budget at all, else the status filter, else the search. */
function emptyReason(all: Budget[], status: StatusFilter | null, search: string): EmptyReason {
  if (all.length === 0) return { kind: 'no-budgets' };
  if (status) return { kind: 'status', status };
  return { kind: 'search', search };
}

