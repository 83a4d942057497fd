import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { Breadcrumbs, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/** "Budgets > {current}", the way back to the dashboard. */
export function BudgetBreadcrumb({ current }: { current: string }) {
  return (
    <Breadcrumbs aria-label="breadcrumb" separator={<NavigateNextIcon fontSize="small" />} sx={{ mb: 2 }}>
      <Link component={RouterLink} to="/budgets" underline="hover" color="inherit">
        Budgets
      </Link>
      <Typography color="text.primary" aria-current="page">
        {current}
      </Typography>
    </Breadcrumbs>
  );
}
