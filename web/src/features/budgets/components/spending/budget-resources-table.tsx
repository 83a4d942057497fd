import {
  Alert,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { isApiError } from '@/api/api-error';
import { useBudgetResources } from '../../api';
import { formatUsd } from '../../model/format';
import {
  DEFAULT_RESOURCE_PAGE_SIZE,
  RESOURCE_COLUMNS,
  RESOURCE_MESSAGES,
  accountText,
  emptyResourcesMessage,
  resourceRows,
  resourcesCostSummary,
  resourcesTotalCount,
  resourcesTotalPages,
  showingEntriesText,
} from '../../model/resources';
import type { Budget } from '../../model/types';
import { daysLabel } from './point-label';
import { ResourcesExportButtons } from './resources-export-buttons';
import { ResourcesPageSize } from './resources-page-size';
import { ResourcesPagination } from './resources-pagination';
import { useResourcesExport } from './use-resources-export';

export interface BudgetResourcesTableProps {
  budget: Pick<Budget, 'id' | 'name'>;
  startDate: string;
  endDate: string;
  /** When it changes (range, data type, clicked point), the table goes back to page 1. */
  resetKey: string;
}

/** §8: the server's message when it sent one, else 'Failed to fetch resources'. */
function fetchErrorMessage(error: unknown): string {
  return isApiError(error) && error.serverMessage ? error.serverMessage : RESOURCE_MESSAGES.fetchFailed;
}

/** The page shown, back to 1 whenever `resetKey` changes (kept with the key it was chosen under). */
function usePageFor(resetKey: string): [number, (page: number) => void] {
  const [chosen, setChosen] = useState({ key: resetKey, page: 1 });
  const page = chosen.key === resetKey ? chosen.page : 1;
  return [page, (next: number) => setChosen({ key: resetKey, page: next })];
}

/**
 * The Resources table (spec 2 §2): the spend per resource of the budget over the selected range
 * or the clicked point's days, paged, with the page-size selector and the CSV exports. Its root
 * has id="budget-resources" (the target of /budgets/view/{id}/resources).
 */
export function BudgetResourcesTable({ budget, startDate, endDate, resetKey }: BudgetResourcesTableProps) {
  const headingId = useId();
  const [size, setSize] = useState(DEFAULT_RESOURCE_PAGE_SIZE);
  const [page, setPage] = usePageFor(`${resetKey}|${size}`);
  const query = useBudgetResources(budget.id, { startDate, endDate, page, size });
  const response = query.data;
  const rows = resourceRows(response);
  const totalCount = resourcesTotalCount(response);
  const totalPages = resourcesTotalPages(response, size);
  const costSummary = resourcesCostSummary(response, formatUsd);
  const exporter = useResourcesExport({ budgetId: budget.id, budgetName: budget.name, startDate, endDate, page, pageRows: rows });

  return (
    <Paper id="budget-resources" component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 } }}>
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} justifyContent="space-between" spacing={2}>
          <Stack spacing={0.5}>
            <Typography id={headingId} variant="h6" component="h2">
              Resources
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {daysLabel({ startDate, endDate })}
            </Typography>
            {rows.length > 0 && costSummary ? (
              <Typography variant="body2" color="text.secondary">
                {costSummary}
              </Typography>
            ) : null}
          </Stack>
          <ResourcesExportButtons exporter={exporter} totalCount={totalCount} disabled={query.isPending || query.isError} />
        </Stack>
        <ResourcesPageSize value={size} onChange={setSize} />
        {query.isFetching ? <LinearProgress aria-label="Loading resources" /> : null}
        {query.isError ? (
          <Alert severity="error">{fetchErrorMessage(query.error)}</Alert>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Budget resources">
              <TableHead>
                <TableRow>
                  {RESOURCE_COLUMNS.map((column) => (
                    <TableCell key={column} align={column === 'Cost' ? 'right' : 'left'}>
                      {column}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row, index) => (
                  <TableRow key={`${row.resourceId ?? row.resourceName}-${index}`}>
                    <TableCell>{row.cloudProvider}</TableCell>
                    <TableCell>{accountText(row)}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{row.resourceName}</TableCell>
                    <TableCell>{row.resourceType}</TableCell>
                    <TableCell>{row.region}</TableCell>
                    <TableCell align="right">{formatUsd(row.cost)}</TableCell>
                  </TableRow>
                ))}
                {response && rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={RESOURCE_COLUMNS.length} align="center" sx={{ py: 4 }}>
                      <Typography>{emptyResourcesMessage(response.totalCost)}</Typography>
                      {typeof response.totalCost === 'number' ? (
                        <Typography variant="body2" color="text.secondary">
                          Total cost: {formatUsd(response.totalCost)}
                        </Typography>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <Stack direction={{ xs: 'column', md: 'row' }} justifyContent="space-between" alignItems={{ md: 'center' }} spacing={1}>
          <Typography variant="body2" color="text.secondary">
            {showingEntriesText(page, size, totalCount)}
          </Typography>
          <ResourcesPagination page={page} totalPages={totalPages} onPageChange={setPage} />
        </Stack>
      </Stack>
    </Paper>
  );
}
