import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { formatCurrency } from '@/lib/cost';
import { shareOf } from '../utils/share';

export interface RankedRow {
  key: string;
  name: string;
  /** A second line under the name (e.g. an account id). */
  detail?: string;
  amount: number;
}

/** Names, amounts (in the answer's `currency`) and their share of `total` (the whole period, not only the rows shown). */
export function RankedTable({
  label,
  nameHeader,
  rows,
  total,
  currency,
}: {
  label: string;
  nameHeader: string;
  rows: RankedRow[];
  total: number;
  currency?: string;
}) {
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell>{nameHeader}</TableCell>
          <TableCell align="right">Amount</TableCell>
          <TableCell align="right">Share</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key}>
            <TableCell>
              {row.name}
              {row.detail && row.detail !== row.name ? (
                <Typography component="span" variant="body2" color="text.secondary">
                  {` (${row.detail})`}
                </Typography>
              ) : null}
            </TableCell>
            <TableCell align="right">{formatCurrency(row.amount, { currency })}</TableCell>
            <TableCell align="right">{shareOf(row.amount, total)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
