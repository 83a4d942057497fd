import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { ReactNode } from 'react';

export interface RowsTableColumn<R> {
  header: string;
  align?: 'left' | 'right';
  cell: (row: R) => ReactNode;
}

/** A plain table of the rows a figure comes from. */
export function RowsTable<R>({ label, columns, rows, rowKey }: { label: string; columns: RowsTableColumn<R>[]; rows: R[]; rowKey: (row: R, index: number) => string }) {
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          {columns.map((column) => (
            <TableCell key={column.header} align={column.align}>
              {column.header}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row, index) => (
          <TableRow key={rowKey(row, index)}>
            {columns.map((column) => (
              <TableCell key={column.header} align={column.align}>
                {column.cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
