import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { Alert, AlertTitle } from '@mui/material';

/** The 'About Cost Budgets' information card of the dashboard. */
export function AboutBudgetsCard() {
  return (
    <Alert role="note" severity="info" variant="outlined" icon={<InfoOutlinedIcon />} sx={{ mb: 3 }}>
      <AlertTitle>About Cost Budgets</AlertTitle>
      A budget tracks the billed cost of the providers, accounts, regions, services or tags you choose against an
      amount for each month, quarter or year. It is healthy below 75% used, warning from 75% and critical from 90%,
      and its alerts are triggered when spend reaches a percentage of the amount or a dollar figure.
    </Alert>
  );
}
