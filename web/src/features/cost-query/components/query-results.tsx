import { Paper, Stack, Table, TableBody, TableCell, TableContainer, TableFooter, TableHead, TableRow, Typography } from '@mui/material';
import { formatCurrency, formatShare, groupKeyLabel, type DrillDimension } from '@/lib/cost';
import { queryRowLabel, shareOf, type CostQueryAnswer } from '../utils/query-results';

export interface QueryResultsProps {
  answer: CostQueryAnswer;
  groupBy: DrillDimension;
}

/** The query's total (in the answer's currency), then one row per group with its amount and share. */
export function QueryResults({ answer, groupBy }: QueryResultsProps) {
  const total = answer.summary.accrued_cost;
  const currency = answer.currency;
  const dimension = groupKeyLabel(groupBy);
  const groups = answer.total_groups;
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle2" component="h2" color="text.secondary">
          Total
        </Typography>
        <Typography variant="h5" component="p" data-testid="query-total">
          {formatCurrency(total, { currency })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {groups === 1 ? '1 group' : `${groups} groups`} by {dimension.toLowerCase()}
        </Typography>
      </Paper>
      <Paper variant="outlined">
        <TableContainer>
          <Table size="small" aria-label={`Query results by ${dimension.toLowerCase()}`}>
            <TableHead>
              <TableRow>
                <TableCell>{dimension}</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell align="right">Share</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {answer.data.map((row, index) => (
                <TableRow key={`${row.grouping_path}-${index}`} hover>
                  <TableCell component="th" scope="row">
                    {queryRowLabel(row, groupBy)}
                  </TableCell>
                  <TableCell align="right">{formatCurrency(row.amount, { currency })}</TableCell>
                  <TableCell align="right">{formatShare(shareOf(row.amount, total))}</TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter sx={{ '& .MuiTableCell-footer': { fontSize: '0.875rem', fontWeight: 600, color: 'text.primary' } }}>
              <TableRow>
                <TableCell component="th" scope="row">
                  Total
                </TableCell>
                <TableCell align="right">{formatCurrency(total, { currency })}</TableCell>
                <TableCell align="right">{formatShare(shareOf(total, total))}</TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        </TableContainer>
      </Paper>
    </Stack>
  );
}
