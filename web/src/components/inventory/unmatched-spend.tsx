import { Alert, Box, Paper, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { formatCurrency } from '@/lib/cost/format';
import { useUnmatchedSpend } from './api';
import type { TimeWindow } from './filters';
import type { CurrencyAmount } from './types';

/** "; also €12.00 in EUR" for the amounts left out of the total (another currency). */
function otherCurrencies(amounts: readonly CurrencyAmount[] | undefined): string {
  if (!amounts?.length) return '';
  return `; also ${amounts.map((a) => formatCurrency(a.amount, { currency: a.currency })).join(', ')} in other currencies`;
}

export const UNMATCHED_FAILED_MESSAGE = 'Failed to load the spend not in the inventory';

/**
 * Spend in the window whose resource id names no discovered resource (issue 14: "lists spend
 * whose resource is not in the inventory").
 */
export function UnmatchedSpend({ window }: { window: TimeWindow }) {
  const spend = useUnmatchedSpend(window.start, window.end);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="unmatched-spend-title" sx={{ p: 2, mt: 3 }}>
      <Typography variant="h6" component="h2" id="unmatched-spend-title">
        Spend not in the inventory
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        Billed cost from {window.startDate} to {window.endDate} whose resource ID matches no discovered resource.
      </Typography>
      {spend.isPending ? <Skeleton aria-label="Loading spend not in the inventory" height={60} /> : null}
      {spend.isError ? <Alert severity="error">{errorMessage(spend.error, UNMATCHED_FAILED_MESSAGE)}</Alert> : null}
      {spend.data ? (
        spend.data.resources.length === 0 ? (
          <Typography variant="body2">All spend with a resource ID matches a resource in the inventory.</Typography>
        ) : (
          <Box>
            <Typography variant="body2" sx={{ mb: 1 }}>
              Total: <strong>{formatCurrency(spend.data.total, { currency: spend.data.currency })}</strong> over{' '}
              {spend.data.resource_count} resource {spend.data.resource_count === 1 ? 'ID' : 'IDs'}
              {spend.data.resources.length < spend.data.resource_count ? ` (the ${spend.data.resources.length} most expensive below)` : ''}
              {otherCurrencies(spend.data.other_currencies)}
            </Typography>
            <Table size="small" aria-label="Spend not in the inventory">
              <TableHead>
                <TableRow>
                  <TableCell>Resource ID</TableCell>
                  <TableCell>Provider</TableCell>
                  <TableCell>Account</TableCell>
                  <TableCell>Service</TableCell>
                  <TableCell align="right">Cost</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {spend.data.resources.map((row) => (
                  <TableRow key={row.resource_id}>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.resource_id}</TableCell>
                    <TableCell>{row.cloud_provider}</TableCell>
                    <TableCell>{row.account_id}</TableCell>
                    <TableCell>{row.service}</TableCell>
                    <TableCell align="right">{formatCurrency(row.cost, { currency: spend.data.currency })}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )
      ) : null}
    </Paper>
  );
}
