import { Link, Table, TableBody, TableCell, TableContainer, TableFooter, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import {
  changeDirection,
  formatChangePercent,
  formatCurrency,
  formatSignedAmount,
  groupKeyLabel,
  type CompareResponse,
  type CompareRow,
  type DrillDimension,
} from '@/lib/cost';
import type { CompareSort, CompareSortKey } from '../types';
import { rowLabel } from '../utils/compare-table';

export interface CompareTableProps {
  answer: CompareResponse;
  /** The rows in the order shown. */
  rows: CompareRow[];
  dimension: DrillDimension;
  sort: CompareSort;
  onSortChange(sort: CompareSort): void;
  /** The Advanced Cost link drilled into a row's value. */
  rowHref(row: CompareRow): string;
}

const COLUMNS: Array<{ key: CompareSortKey; label: string; numeric: boolean }> = [
  { key: 'name', label: '', numeric: false },
  { key: 'previous', label: 'Previous', numeric: true },
  { key: 'current', label: 'Current', numeric: true },
  { key: 'change', label: 'Change', numeric: true },
  { key: 'percent', label: 'Change %', numeric: true },
];

/** More spend reads red, less green; the sign and the arrow say it without the colour. */
function changeColor(change: number): string {
  const direction = changeDirection(change);
  return direction === 'up' ? 'error.main' : direction === 'down' ? 'success.main' : 'text.secondary';
}

function Amounts({ row, currency }: { row: Pick<CompareRow, 'previous' | 'current' | 'change' | 'percent_change'>; currency: string }) {
  const color = changeColor(row.change);
  return (
    <>
      <TableCell align="right" sx={{ color: 'text.primary' }}>
        {formatCurrency(row.previous, { currency })}
      </TableCell>
      <TableCell align="right" sx={{ color: 'text.primary' }}>
        {formatCurrency(row.current, { currency })}
      </TableCell>
      <TableCell align="right" sx={{ color }}>
        {formatSignedAmount(row.change, currency)}
      </TableCell>
      <TableCell align="right" sx={{ color, whiteSpace: 'nowrap' }}>
        {formatChangePercent(row)}
      </TableCell>
    </>
  );
}

/** The comparison table: one row per group with sortable columns, and the totals over every group. */
export function CompareTable({ answer, rows, dimension, sort, onSortChange, rowHref }: CompareTableProps) {
  const dimensionLabel = groupKeyLabel(dimension);
  const toggle = (key: CompareSortKey) =>
    onSortChange(
      sort.key === key ? { key, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: key === 'name' ? 'asc' : 'desc' },
    );
  return (
    <TableContainer>
      <Table size="small" aria-label={`Comparison by ${dimensionLabel.toLowerCase()}`}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => {
              const active = sort.key === column.key;
              return (
                <TableCell
                  key={column.key}
                  align={column.numeric ? 'right' : 'left'}
                  sortDirection={active ? sort.direction : false}
                >
                  <TableSortLabel active={active} direction={active ? sort.direction : 'desc'} onClick={() => toggle(column.key)}>
                    {column.label || dimensionLabel}
                  </TableSortLabel>
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key} hover>
              <TableCell component="th" scope="row">
                <Link component={RouterLink} to={rowHref(row)}>
                  {rowLabel(row)}
                </Link>
              </TableCell>
              <Amounts row={row} currency={answer.currency} />
            </TableRow>
          ))}
        </TableBody>
        <TableFooter sx={{ '& .MuiTableCell-footer': { fontSize: '0.875rem', fontWeight: 600 } }}>
          <TableRow>
            <TableCell component="th" scope="row" sx={{ color: 'text.primary' }}>
              Total
            </TableCell>
            <Amounts row={answer.totals} currency={answer.currency} />
          </TableRow>
        </TableFooter>
      </Table>
    </TableContainer>
  );
}
