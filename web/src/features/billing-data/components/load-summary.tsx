import { Alert, AlertTitle, Box, Typography } from '@mui/material';
import type { IngestJob } from '../types';
import { billingMonth, formatCount, formatMoney, providerLabel } from '../utils/numbers';

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** What a successful load stored: rows, rows replaced, billing periods and totals per provider. */
export function LoadSummary({ job, onClose }: { job: IngestJob; onClose?: () => void }) {
  return (
    <Alert severity="success" role="status" aria-label="Upload result" onClose={onClose}>
      <AlertTitle>Billing data loaded</AlertTitle>
      <Typography variant="body2">
        {plural(job.rows, 'row', 'rows')} loaded from {plural(job.files.length, 'file', 'files')}
        {job.replaced_rows > 0
          ? `, replacing ${plural(job.replaced_rows, 'row', 'rows')} loaded before for the same billing periods.`
          : '.'}
      </Typography>
      {job.billing_periods.length > 0 ? (
        <Box sx={{ mt: 1.5 }}>
          <Typography variant="subtitle2" component="h3">
            Billing periods
          </Typography>
          <Box component="ul" aria-label="Billing periods" sx={{ m: 0, pl: 2.5 }}>
            {job.billing_periods.map((period) => {
              const text = `${providerLabel(period.provider)} · ${period.billing_account_id} · ${billingMonth(period.billing_period_start)}`;
              return (
                <Typography component="li" variant="body2" key={text}>
                  {text}
                </Typography>
              );
            })}
          </Box>
        </Box>
      ) : null}
      {job.totals.length > 0 ? (
        <Box sx={{ mt: 1.5 }}>
          <Typography variant="subtitle2" component="h3">
            Totals
          </Typography>
          <Box component="ul" aria-label="Totals" sx={{ m: 0, pl: 2.5 }}>
            {job.totals.map((total) => (
              <Typography component="li" variant="body2" key={`${total.provider}-${total.currency}`}>
                <strong>{providerLabel(total.provider)}</strong>: billed {formatMoney(total.billed_cost, total.currency)} · effective{' '}
                {formatMoney(total.effective_cost, total.currency)} · list {formatMoney(total.list_cost, total.currency)} (
                {plural(total.rows, 'row', 'rows')})
              </Typography>
            ))}
          </Box>
        </Box>
      ) : null}
    </Alert>
  );
}

/** A refused upload: the server's message as it is (it names the file, row and column). */
export function LoadFailure({ message, onClose }: { message: string; onClose?: () => void }) {
  return (
    <Alert severity="error" aria-label="Upload result" onClose={onClose}>
      <AlertTitle>The billing data was not loaded</AlertTitle>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {message}
      </Typography>
      <Typography variant="body2" sx={{ mt: 1 }}>
        Nothing of this upload was stored. Fix the file and upload it again.
      </Typography>
    </Alert>
  );
}
