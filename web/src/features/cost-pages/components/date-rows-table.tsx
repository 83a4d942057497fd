import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import { Box, IconButton, Table, TableBody, TableCell, TableHead, TablePagination, TableRow } from '@mui/material';
import { Fragment, useState } from 'react';
import { formatChartAmount, formatDayLabel } from '@/lib/cost';
import type { DateRow } from '../utils/date-rows';

export const ROWS_PER_PAGE_OPTIONS = [5, 10, 25, 50];
export const DEFAULT_ROWS_PER_PAGE = 10;

export interface DateRowsTableProps {
  rows: DateRow[];
  /** The expanded rows' first column (Service, Account, …); null when ungrouped. */
  groupLabel: string | null;
}

/**
 * The cost visualisation table (spec 1 §2.11): one row per date, 10 per page (5, 10, 25, 50);
 * a grouped date row expands to the amount of each group.
 */
export function DateRowsTable({ rows, groupLabel }: DateRowsTableProps) {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(DEFAULT_ROWS_PER_PAGE);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const lastPage = Math.max(0, Math.ceil(rows.length / rowsPerPage) - 1);
  const current = Math.min(page, lastPage);
  const shown = rows.slice(current * rowsPerPage, current * rowsPerPage + rowsPerPage);

  const toggle = (date: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(date)) next.delete(date);
      else next.add(date);
      return next;
    });

  return (
    <Box>
      <Table size="small" aria-label="Cost by date">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>Date</TableCell>
            <TableCell align="right">Amount</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.map((row) => {
            const label = formatDayLabel(row.date);
            const open = expanded.has(row.date);
            return (
              <Fragment key={row.date}>
                <TableRow>
                  <TableCell padding="checkbox">
                    {groupLabel ? (
                      <IconButton size="small" aria-label={`${open ? 'Collapse' : 'Expand'} ${label}`} aria-expanded={open} onClick={() => toggle(row.date)}>
                        {open ? <KeyboardArrowDownIcon /> : <KeyboardArrowRightIcon />}
                      </IconButton>
                    ) : null}
                  </TableCell>
                  <TableCell component="th" scope="row">
                    {label}
                  </TableCell>
                  <TableCell align="right">{formatChartAmount(row.total)}</TableCell>
                </TableRow>
                {open && groupLabel ? (
                  <TableRow>
                    <TableCell />
                    <TableCell colSpan={2} sx={{ py: 0 }}>
                      <Table size="small" aria-label={`${label} by ${groupLabel.toLowerCase()}`}>
                        <TableHead>
                          <TableRow>
                            <TableCell>{groupLabel}</TableCell>
                            <TableCell align="right">Amount</TableCell>
                          </TableRow>
                        </TableHead>
                        <TableBody>
                          {row.groups.map((group) => (
                            <TableRow key={group.name}>
                              <TableCell>{group.name}</TableCell>
                              <TableCell align="right">{formatChartAmount(group.amount)}</TableCell>
                            </TableRow>
                          ))}
                        </TableBody>
                      </Table>
                    </TableCell>
                  </TableRow>
                ) : null}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={rows.length}
        page={current}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS}
        onPageChange={(_, next) => setPage(next)}
        onRowsPerPageChange={(event) => {
          setRowsPerPage(Number(event.target.value));
          setPage(0);
        }}
      />
    </Box>
  );
}
