import {
  Chip,
  LinearProgress,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink, useNavigate } from 'react-router';
import { STATUS_FILTER_LABEL } from '../../model/dashboard';
import { budgetProviders } from '../../model/filters';
import { formatPercent, formatUsd } from '../../model/format';
import { barColor, type DashboardStatus } from '../../model/health';
import type { Budget } from '../../model/types';
import { budgetViewPath } from '../card/budget-card';

const STATUS_COLOR: Record<DashboardStatus, 'success' | 'warning' | 'error'> = {
  healthy: 'success',
  warning: 'warning',
  critical: 'error',
};

const COLUMNS = [
  'Name',
  'Period',
  'Current Period',
  'Budget Amount',
  'Current Spent',
  'Previous Period Spent',
  'Percentage Used',
  'Status',
  'Alerts Triggered',
  'Cloud Providers',
] as const;

/**
 * Detail mode: the same budgets (searched, filtered, sorted) as one table row each, with what
 * the cards leave out or fold away — the dates of the current period, the previous period's
 * spend, triggered alerts out of all alerts, and every provider. A row opens the budget's view.
 */
export function BudgetsTable({ budgets }: { budgets: Budget[] }) {
  const navigate = useNavigate();
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Budgets" size="small" sx={{ minWidth: 1100 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column} align={isNumeric(column) ? 'right' : 'left'}>
                {column}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {budgets.map((budget) => {
            const percent = budget.percentUsed;
            const status = budget.status;
            return (
              <TableRow
                key={budget.id}
                hover
                onClick={() => navigate(budgetViewPath(budget.id))}
                sx={{ cursor: 'pointer' }}
              >
                <TableCell>
                  <Link component={RouterLink} to={budgetViewPath(budget.id)} underline="hover" fontWeight={600}>
                    {budget.name}
                  </Link>
                </TableCell>
                <TableCell>{budget.period}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {budget.periodStart} – {budget.periodEnd}
                  <Typography variant="caption" color="text.secondary" component="p">
                    {budget.daysRemaining === 1 ? '1 day remaining' : `${budget.daysRemaining} days remaining`}
                  </Typography>
                </TableCell>
                <TableCell align="right">{formatUsd(budget.amount)}</TableCell>
                <TableCell align="right">{formatUsd(budget.currentSpent)}</TableCell>
                <TableCell align="right">
                  {budget.previousSpent === null || budget.previousSpent === undefined ? '—' : formatUsd(budget.previousSpent)}
                </TableCell>
                <TableCell align="right" sx={{ minWidth: 120 }}>
                  {formatPercent(percent)}
                  <LinearProgress
                    variant="determinate"
                    value={Math.min(percent, 100)}
                    color={barColor(status)}
                    aria-hidden="true"
                    sx={{ mt: 0.5, height: 4, borderRadius: 2 }}
                  />
                </TableCell>
                <TableCell>
                  <Stack direction="row" spacing={0.5}>
                    <Chip size="small" variant="outlined" color={STATUS_COLOR[status]} label={STATUS_FILTER_LABEL[status]} />
                    {budget.exceeded ? <Chip size="small" color="error" label="Exceeded" /> : null}
                  </Stack>
                </TableCell>
                <TableCell align="right">
                  {budget.triggeredAlerts} of {budget.alerts.length}
                </TableCell>
                <TableCell>{budgetProviders(budget).join(', ') || '—'}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function isNumeric(column: (typeof COLUMNS)[number]): boolean {
  return ['Budget Amount', 'Current Spent', 'Previous Period Spent', 'Percentage Used', 'Alerts Triggered'].includes(column);
}
