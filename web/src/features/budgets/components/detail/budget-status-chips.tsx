import { Chip, Stack } from '@mui/material';
import { DETAIL_STATUS_LABEL, type DetailStatus } from '../../model/health';
import { DETAIL_MESSAGES } from './detail-messages';

const STATUS_COLOR: Record<DetailStatus, 'error' | 'warning' | 'success'> = {
  exceeded: 'error',
  warning: 'warning',
  healthy: 'success',
};

/**
 * The detail page's health reading (spec 2 §4): over 100% 'Exceeded Budget' (danger); otherwise
 * 'Within Budget' with 'Approaching Limit' (75 to under 100) or 'On Track' (under 75). The
 * reading is the server's `detailStatus`.
 */
export function BudgetStatusChips({ status }: { status: DetailStatus }) {
  const health = <Chip size="small" color={STATUS_COLOR[status]} label={DETAIL_STATUS_LABEL[status]} />;
  if (status === 'exceeded') return health;
  return (
    <Stack direction="row" spacing={1}>
      <Chip size="small" variant="outlined" color="success" label={DETAIL_MESSAGES.withinBudget} />
      {health}
    </Stack>
  );
}
