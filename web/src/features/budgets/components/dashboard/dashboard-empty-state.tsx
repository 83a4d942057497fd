import SavingsOutlinedIcon from '@mui/icons-material/SavingsOutlined';
import { Paper, Typography } from '@mui/material';
import { STATUS_FILTER_LABEL, type StatusFilter } from '../../model/dashboard';

export type EmptyReason =
  | { kind: 'no-budgets' }
  | { kind: 'status'; status: StatusFilter }
  | { kind: 'search'; search: string };

function texts(reason: EmptyReason): { heading: string; text: string } {
  switch (reason.kind) {
    case 'no-budgets':
      return {
        heading: 'No budgets found',
        text: "You haven't created any budgets yet. Click the 'Create Budget' button to create your first budget and start monitoring your cloud costs.",
      };
    case 'status':
      return {
        heading: 'No matching budgets found',
        text: `No budgets match the ${STATUS_FILTER_LABEL[reason.status]} filter. Click on the filter again to show all budgets.`,
      };
    case 'search':
      // Not in the spec: a search alone that matches nothing.
      return { heading: 'No matching budgets found', text: `No budgets match "${reason.search.trim()}".` };
  }
}

export function DashboardEmptyState({ reason }: { reason: EmptyReason }) {
  const { heading, text } = texts(reason);
  return (
    <Paper variant="outlined" sx={{ p: 5, textAlign: 'center' }}>
      <SavingsOutlinedIcon color="disabled" sx={{ fontSize: 48, mb: 1 }} />
      <Typography variant="h6" component="h2">
        {heading}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, maxWidth: 560, mx: 'auto' }}>
        {text}
      </Typography>
    </Paper>
  );
}
