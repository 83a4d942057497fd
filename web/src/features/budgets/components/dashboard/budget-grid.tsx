import { Grid } from '@mui/material';
import type { Budget } from '../../model/types';
import { BudgetCard } from '../card/budget-card';

/** Overview mode: one card per budget. */
export function BudgetGrid({ budgets, canManage }: { budgets: Budget[]; canManage: boolean }) {
  return (
    <Grid container spacing={2}>
      {budgets.map((budget) => (
        <Grid key={budget.id} size={{ xs: 12, md: 6, xl: 4 }}>
          <BudgetCard budget={budget} canManage={canManage} />
        </Grid>
      ))}
    </Grid>
  );
}
