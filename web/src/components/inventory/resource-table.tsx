import {
  Box,
  Chip,
  LinearProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { formatCurrency } from '@/lib/cost/format';
import { PAGE_SIZE } from './constants';
import { countLabel } from './filters';
import { formatTime } from './format';
import type { Resource } from './types';

export interface ResourceTableProps {
  rows: readonly Resource[];
  total: number;
  currency: string;
  page: number;
  onPageChange(page: number): void;
  onOpen(resource: Resource): void;
  loading: boolean;
  /** Tags Search: the extra Tags column. */
  showTags?: boolean;
  onExport(): void;
  exporting: boolean;
  /** Shown instead of the rows when there are none. */
  emptyText?: string;
}

const MAX_TAG_CHIPS = 3;

function TagChips({ tags }: { tags: Record<string, string> }) {
  const entries = Object.entries(tags);
  if (entries.length === 0) return <Typography variant="body2" color="text.secondary">—</Typography>;
  const shown = entries.slice(0, MAX_TAG_CHIPS);
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
      {shown.map(([key, value]) => (
        <Chip key={key} size="small" label={value === '' ? key : `${key}: ${value}`} />
      ))}
      {entries.length > MAX_TAG_CHIPS ? <Chip size="small" variant="outlined" label={`+${entries.length - MAX_TAG_CHIPS}`} /> : null}
    </Stack>
  );
}

export function stateLabel(resource: Pick<Resource, 'd_time'>): string {
  return resource.d_time ? 'Deleted' : 'Live';
}

/** Spec 1 §2.7 table: first scan time descending, 10 rows a page, "200+" above 199. */
export function ResourceTable({
  rows,
  total,
  currency,
  page,
  onPageChange,
  onOpen,
  loading,
  showTags,
  onExport,
  exporting,
  emptyText = 'No resources found',
}: ResourceTableProps) {
  const columns = 7 + (showTags ? 1 : 0);
  return (
    <Box>
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
        <Stack direction="row" spacing={1} alignItems="center">
          <Typography variant="h6" component="h2">
            Resources
          </Typography>
          <Chip size="small" label={countLabel(total)} aria-label="Resource count" />
        </Stack>
        <Link component="button" type="button" variant="body2" onClick={onExport} disabled={exporting} sx={{ opacity: exporting ? 0.5 : 1 }}>
          Export to CSV
        </Link>
      </Stack>
      {loading ? <LinearProgress aria-label="Loading resources" /> : <Box sx={{ height: 4 }} />}
      <TableContainer>
        <Table size="small" aria-label="Resources">
          <TableHead>
            <TableRow>
              <TableCell>Resource ID</TableCell>
              <TableCell>Resource Type</TableCell>
              <TableCell>Region</TableCell>
              <TableCell>AWS Account</TableCell>
              <TableCell>First Scan Time</TableCell>
              <TableCell>State</TableCell>
              <TableCell align="right">
                <Tooltip title="Billed cost in the selected time duration">
                  <span>Cost</span>
                </Tooltip>
              </TableCell>
              {showTags ? <TableCell>Tags</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 && !loading ? (
              <TableRow>
                <TableCell colSpan={columns} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {emptyText}
                </TableCell>
              </TableRow>
            ) : null}
            {rows.map((resource) => (
              <TableRow
                key={`${resource.account_id}/${resource.region}/${resource.resource_type}/${resource.resource_id}`}
                hover
                tabIndex={0}
                sx={{ cursor: 'pointer' }}
                onClick={() => onOpen(resource)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') onOpen(resource);
                }}
              >
                <TableCell sx={{ maxWidth: 280, overflowWrap: 'anywhere' }}>{resource.resource_id}</TableCell>
                <TableCell>{resource.resource_type}</TableCell>
                <TableCell>{resource.region}</TableCell>
                <TableCell>{resource.account_id}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(resource.c_time)}</TableCell>
                <TableCell>
                  <Chip size="small" color={resource.d_time ? 'default' : 'success'} variant="outlined" label={stateLabel(resource)} />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {resource.cost === null || resource.cost === undefined ? '—' : formatCurrency(resource.cost, { currency })}
                </TableCell>
                {showTags ? (
                  <TableCell>
                    <TagChips tags={resource.tags} />
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={total === 0 ? 0 : page}
        onPageChange={(_, next) => onPageChange(next)}
        rowsPerPage={PAGE_SIZE}
        rowsPerPageOptions={[PAGE_SIZE]}
      />
    </Box>
  );
}
