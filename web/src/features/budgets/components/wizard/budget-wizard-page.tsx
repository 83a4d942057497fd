import { Alert, Box, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { isApiError } from '@/api/api-error';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { PageHeader } from '@/components/page-header';
import { useBudget } from '../../api';
import { formFromBudget, newBudgetForm, WIZARD_MESSAGES } from '../../model/wizard';
import { BudgetWizard } from './budget-wizard';

/** A route id as a budget id, or undefined when it cannot be one. */
function parseBudgetId(id: string): number | undefined {
  return /^\d+$/.test(id) ? Number(id) : undefined;
}

/** /budgets/create ('Create Budget') and /budgets/edit/:id ('Edit Budget'). */
export function BudgetWizardPage() {
  const { id } = useParams<{ id: string }>();
  if (id === undefined) {
    return (
      <Box>
        <PageHeader title="Create Budget" />
        <BudgetWizard initForm={newBudgetForm} />
      </Box>
    );
  }
  return <EditBudget budgetId={parseBudgetId(id)} />;
}

function EditBudget({ budgetId }: { budgetId: number | undefined }) {
  const budget = useBudget(budgetId);
  const notFound = budgetId === undefined || (isApiError(budget.error) && budget.error.status === 404);
  let body: ReactNode;
  if (notFound || budget.isError) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" component={RouterLink} to="/budgets">
            Back to Budgets
          </Button>
        }
      >
        {notFound ? WIZARD_MESSAGES.budgetNotFound : WIZARD_MESSAGES.loadBudgetFailed}
      </Alert>
    );
  } else if (!budget.data) {
    body = <FullPageSpinner label="Loading budget" />;
  } else {
    const loaded = budget.data;
    // Keyed by id so that another budget starts a fresh form.
    body = <BudgetWizard key={loaded.id} budgetId={loaded.id} initForm={(makeId) => formFromBudget(loaded, makeId)} />;
  }
  return (
    <Box>
      <PageHeader title="Edit Budget" />
      {body}
    </Box>
  );
}
