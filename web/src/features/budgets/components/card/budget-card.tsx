import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import NotificationsActiveOutlinedIcon from '@mui/icons-material/NotificationsActiveOutlined';
import { Box, Button, Card, Chip, Divider, Link, Stack, Typography } from '@mui/material';
import { useState, type MouseEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { budgetProviders } from '../../model/filters';
import { formatUsd } from '../../model/format';
import type { Budget } from '../../model/types';
import { BudgetForecast } from './budget-forecast';
import { BudgetSettings } from './budget-settings';
import { CollapsibleSection } from './collapsible-section';
import { DeleteBudgetDialog } from './delete-budget-dialog';
import { FilterChips } from './filter-chips';
import { PeriodRibbon } from './period-ribbon';
import { ProviderBadge } from './provider-badge';
import { ManageTooltip } from './manage-tooltip';
import { UsageProgress } from './usage-progress';

export interface BudgetCardProps {
  budget: Budget;
  /** Owners and admins; for a plain user Edit and Delete are disabled. */
  canManage: boolean;
}

export const budgetViewPath = (id: number) => `/budgets/view/${id}`;
export const budgetEditPath = (id: number) => `/budgets/edit/${id}`;

/** One budget on the dashboard (spec 2 §2 "Budget card"); a click anywhere else opens its view. */
export function BudgetCard({ budget, canManage }: BudgetCardProps) {
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const triggered = budget.triggeredAlerts;

  const openView = (event: MouseEvent<HTMLElement>) => {
    // Clicks inside the delete dialog bubble here through the React portal: ignore them.
    if (!event.currentTarget.contains(event.target as Node)) return;
    navigate(budgetViewPath(budget.id));
  };

  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={budget.name}
      onClick={openView}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', cursor: 'pointer', '&:hover': { boxShadow: 2 } }}
    >
      <PeriodRibbon period={budget.period} />
      <Stack spacing={1.5} sx={{ p: 2, pt: 1.5, flexGrow: 1 }}>
        <Stack direction="row" spacing={1} alignItems="flex-start" justifyContent="space-between">
          <Box sx={{ minWidth: 0 }}>
            <Link
              component={RouterLink}
              to={budgetViewPath(budget.id)}
              underline="hover"
              color="text.primary"
              variant="h6"
              sx={{ display: 'block', overflowWrap: 'anywhere' }}
            >
              {budget.name}
            </Link>
            <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" sx={{ mt: 0.5 }}>
              {budget.exceeded ? <Chip label="Exceeded" color="error" size="small" /> : null}
              {triggered > 0 ? (
                <Chip
                  icon={<NotificationsActiveOutlinedIcon />}
                  label={`${triggered} ${triggered === 1 ? 'alert' : 'alerts'} triggered`}
                  color="warning"
                  variant="outlined"
                  size="small"
                />
              ) : null}
            </Stack>
          </Box>
          <ProviderBadge providers={budgetProviders(budget)} />
        </Stack>

        <UsageProgress budget={budget} />

        <Stack direction="row" spacing={2}>
          <Amount label="Budget Amount" value={formatUsd(budget.amount)} />
          <Amount label="Current Spent" value={formatUsd(budget.currentSpent)} />
        </Stack>
        <BudgetForecast budget={budget} />

        <Divider />
        {/* The sections and the buttons do their own thing: their clicks must not open the view. */}
        <Box onClick={(event) => event.stopPropagation()} sx={{ cursor: 'default' }}>
          <CollapsibleSection title="Filters">
            <FilterChips filters={budget.filters} />
          </CollapsibleSection>
          <CollapsibleSection title="Settings">
            <BudgetSettings budget={budget} />
          </CollapsibleSection>
        </Box>
      </Stack>

      <Stack
        direction="row"
        spacing={1}
        justifyContent="flex-end"
        onClick={(event) => event.stopPropagation()}
        sx={{ px: 2, pb: 2, cursor: 'default' }}
      >
        <ManageTooltip canManage={canManage}>
          <Button
            size="small"
            variant="outlined"
            startIcon={<EditOutlinedIcon />}
            disabled={!canManage}
            onClick={() => navigate(budgetEditPath(budget.id))}
          >
            Edit
          </Button>
        </ManageTooltip>
        <ManageTooltip canManage={canManage}>
          <Button
            size="small"
            variant="outlined"
            color="error"
            startIcon={<DeleteOutlineIcon />}
            disabled={!canManage}
            onClick={() => setDeleting(true)}
          >
            Delete
          </Button>
        </ManageTooltip>
      </Stack>

      <DeleteBudgetDialog
        budget={budget}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => setDeleting(false)}
      />
    </Card>
  );
}

function Amount({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ flex: 1 }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography variant="subtitle1" component="p" fontWeight={600}>
        {value}
      </Typography>
    </Box>
  );
}
