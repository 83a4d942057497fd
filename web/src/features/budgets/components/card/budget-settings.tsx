import { Stack, Typography } from '@mui/material';
import { alertDescription } from '../../model/alerts';
import type { Budget } from '../../model/types';

/** The Settings section: the period and the 'Alert at' list, or None. */
export function BudgetSettings({ budget }: { budget: Budget }) {
  const alerts = budget.alerts.map(alertDescription);
  return (
    <Stack spacing={0.5}>
      <Setting label="Period" value={budget.period} />
      <Setting label="Alert at" value={alerts.length > 0 ? alerts.join(', ') : 'None'} />
    </Stack>
  );
}

function Setting({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" spacing={1} justifyContent="space-between">
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" textAlign="right">
        {value}
      </Typography>
    </Stack>
  );
}
