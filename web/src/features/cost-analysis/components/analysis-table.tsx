import {
  Alert,
  Link,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { UNKNOWN_DIMENSION, formatCurrency, formatShare, groupKeyLabel, type GroupKey } from '@/lib/cost';
import type { GroupingState, SortField } from '../types';
import type { Capped, GroupTableRow, PeriodTableRow } from '../utils/table-rows';
import { sortGroupRows } from '../utils/table-rows';

type Dimension = Exclude<GroupKey, 'none'>;

const ROWS_PER_PAGE = [10, 25, 50, 100];

function TruncationNote({ shown, total, noun }: { shown: number; total: number; noun: string }) {
  return (
    <Alert severity="info" sx={{ mb: 1 }}>
      Showing the first {shown.toLocaleString('en-US')} of {total.toLocaleString('en-US')} {noun}. Narrow the period, filters or
      grouping to see the rest.
    </Alert>
  );
}

function usePage(count: number) {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(25);
  const lastPage = Math.max(0, Math.ceil(count / rowsPerPage) - 1);
  const current = Math.min(page, lastPage);
  const pagination = (
    <TablePagination
      component="div"
      count={count}
      page={current}
      rowsPerPage={rowsPerPage}
      rowsPerPageOptions={ROWS_PER_PAGE}
      onPageChange={(_, next) => setPage(next)}
      onRowsPerPageChange={(event) => {
        setRowsPerPage(Number(event.target.value));
        setPage(0);
      }}
    />
  );
  return { start: current * rowsPerPage, end: current * rowsPerPage + rowsPerPage, pagination };
}

export interface GroupTableProps {
  rows: Capped<GroupTableRow>;
  dimensions: Dimension[];
  sort: GroupingState['sortConfig'];
  onSortChange(sort: GroupingState['sortConfig']): void;
  /** The answer's currency. */
  currency?: string;
  /** A click (or Enter) on a row's first label: drill into that value (docs/ANALYST-FLOW.md). */
  onDrill?(label: string): void;
}

/** One row per combination of the chosen dimensions: its total and share of the period's total. */
export function GroupTable({ rows, dimensions, sort, onSortChange, currency, onDrill }: GroupTableProps) {
  const sorted = useMemo(() => sortGroupRows(rows.rows, sort, dimensions), [rows.rows, sort, dimensions]);
  const { start, end, pagination } = usePage(sorted.length);
  const sortBy = (field: SortField) =>
    onSortChange({
      field,
      direction: sort.field === field ? (sort.direction === 'desc' ? 'asc' : 'desc') : field === 'cost' ? 'desc' : 'asc',
    });
  const header = (field: SortField, label: string, align?: 'right') => (
    <TableCell key={field} align={align} sortDirection={sort.field === field ? sort.direction : false}>
      <TableSortLabel active={sort.field === field} direction={sort.field === field ? sort.direction : 'asc'} onClick={() => sortBy(field)}>
        {label}
      </TableSortLabel>
    </TableCell>
  );
  return (
    <>
      {rows.truncated ? <TruncationNote shown={rows.rows.length} total={rows.total} noun="combinations" /> : null}
      <TableContainer>
        <Table size="small" aria-label="Cost by group">
          <TableHead>
            <TableRow>
              {dimensions.map((dimension) => header(dimension, groupKeyLabel(dimension)))}
              {header('cost', 'Cost', 'right')}
              <TableCell align="right">Share of total</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {sorted.slice(start, end).map((row) => (
              <TableRow key={row.key} hover>
                {row.values.map((value, i) => (
                  <TableCell key={dimensions[i] ?? i}>
                    {/* The first dimension drives the drill; "Unknown" selects nothing. */}
                    {i === 0 && onDrill && value !== UNKNOWN_DIMENSION ? (
                      <Link component="button" type="button" variant="body2" aria-label={`Drill into ${value}`} onClick={() => onDrill(value)} sx={{ textAlign: 'left' }}>
                        {value}
                      </Link>
                    ) : (
                      value
                    )}
                  </TableCell>
                ))}
                <TableCell align="right">{formatCurrency(row.amount, { currency })}</TableCell>
                <TableCell align="right">{formatShare(row.share)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {pagination}
    </>
  );
}

export interface PeriodTableProps {
  rows: Capped<PeriodTableRow>;
  cumulative: boolean;
  /** The answer's currency. */
  currency?: string;
}

/** Ungrouped: one row per period. */
export function PeriodTable({ rows, cumulative, currency }: PeriodTableProps) {
  const { start, end, pagination } = usePage(rows.rows.length);
  return (
    <>
      {rows.truncated ? <TruncationNote shown={rows.rows.length} total={rows.total} noun="periods" /> : null}
      <TableContainer>
        <Table size="small" aria-label="Cost by period">
          <TableHead>
            <TableRow>
              <TableCell>Period</TableCell>
              <TableCell align="right">{cumulative ? 'Cumulative cost' : 'Cost'}</TableCell>
              {cumulative ? null : <TableCell align="right">Share of total</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.rows.slice(start, end).map((row) => (
              <TableRow key={row.key} hover>
                <TableCell>{row.period}</TableCell>
                <TableCell align="right">{formatCurrency(row.amount, { currency })}</TableCell>
                {cumulative ? null : <TableCell align="right">{formatShare(row.share)}</TableCell>}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {pagination}
    </>
  );
}
