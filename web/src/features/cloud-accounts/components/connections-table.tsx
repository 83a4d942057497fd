import SyncIcon from '@mui/icons-material/Sync';
import {
  Box,
  Button,
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import type { CloudConnection, Provider } from '../types';
import { PROVIDER_NAMES } from '../utils/providers';
import { compareValues, nextSort, type SortState } from '../utils/sort';
import {
  connectionStateLabel,
  formatDateTimeUtc,
  isConnected,
  isMemberRow,
  isSyncBusy,
  lastSyncTime,
  syncLabel,
} from '../utils/status';

export type SortField = 'name' | 'account' | 'state' | 'export' | 'lastSync' | 'error';

const COLUMNS: { field: SortField; label: string }[] = [
  { field: 'name', label: 'Name' },
  { field: 'account', label: 'Account ID' },
  { field: 'state', label: 'State' },
  { field: 'export', label: 'Billing export' },
  { field: 'lastSync', label: 'Last sync' },
  { field: 'error', label: 'Last error' },
];

const ID_LABELS: Record<Provider, string> = { aws: 'Account ID', gcp: 'Project ID', azure: 'Subscription ID' };
export const TABLE_NOUNS: Record<Provider, string> = { aws: 'accounts', gcp: 'projects', azure: 'exports' };

function sortValue(row: CloudConnection, field: SortField): string | null {
  switch (field) {
    case 'name':
      return row.account_name;
    case 'account':
      return row.account_id;
    case 'state':
      return connectionStateLabel(row);
    case 'export':
      return row.export?.location ?? null;
    case 'lastSync':
      return lastSyncTime(row.sync);
    case 'error':
      return row.sync?.last_error ?? null;
  }
}

/**
 * Sorted rows with every organisation's member accounts right under it (sorted the same way
 * among themselves); members whose organisation is not in the list stay top-level.
 */
export function sortConnections(rows: CloudConnection[], sort: SortState<SortField>): CloudConnection[] {
  const ids = new Set(rows.map((r) => r.id).filter((id): id is number => id != null));
  const isMember = (r: CloudConnection) => r.parent_id != null && ids.has(r.parent_id);
  const cmp = (a: CloudConnection, b: CloudConnection) => {
    const order = compareValues(sortValue(a, sort.field), sortValue(b, sort.field));
    return sort.direction === 'asc' ? order : -order;
  };
  const top = rows.filter((r) => !isMember(r)).sort(cmp);
  return top.flatMap((row) => [row, ...rows.filter((m) => isMember(m) && m.parent_id === row.id && row.id != null).sort(cmp)]);
}

function StateCell({ row }: { row: CloudConnection }) {
  const label = connectionStateLabel(row);
  const color =
    label === 'Connected' ? 'success' : label === 'Failed' ? 'error' : label === 'In progress' ? 'info' : 'default';
  return (
    <Box>
      <Chip size="small" variant="outlined" label={label} color={color} />
      {row.registration?.State === 7 && row.registration.details ? (
        <Typography variant="body2" color="error" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          {row.registration.details}
        </Typography>
      ) : null}
    </Box>
  );
}

function SyncCell({ row }: { row: CloudConnection }) {
  if (!isConnected(row) || isMemberRow(row)) return <>—</>;
  const label = syncLabel(row.sync);
  const color = label === 'Succeeded' ? 'success' : label === 'Failed' ? 'error' : label === 'Never synced' ? 'default' : 'info';
  return (
    <Stack spacing={0.5} alignItems="flex-start">
      <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
        {formatDateTimeUtc(lastSyncTime(row.sync))}
      </Typography>
      <Chip size="small" label={label} color={color} variant="outlined" />
      {row.sync?.last_details ? (
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {row.sync.last_details}
        </Typography>
      ) : null}
      {row.sync?.next_sync_at && !isSyncBusy(row.sync) ? (
        <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          Next: {formatDateTimeUtc(row.sync.next_sync_at)}
        </Typography>
      ) : null}
    </Stack>
  );
}

export interface ConnectionsTableProps {
  provider: Provider;
  rows: CloudConnection[];
  canManage: boolean;
  /** Why the controls are disabled (tooltip), when they are. */
  disabledReason: string | null;
  /** Connection ids whose "Sync now" call is being sent. */
  sending: ReadonlySet<number>;
  onSync: (row: CloudConnection) => void;
  onRemove: (row: CloudConnection) => void;
  onConnect: (row: CloudConnection) => void;
  /** A new registration check of a connection whose check failed (AWS). */
  onRecheck?: (row: CloudConnection) => void;
}

function WithReason({ reason, children }: { reason: string | null; children: React.ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip title={reason}>
      <span>{children}</span>
    </Tooltip>
  );
}

/** One provider's connections: sortable by every column (spec 2 §2, §4 Sorting). */
export function ConnectionsTable({
  provider,
  rows,
  canManage,
  disabledReason,
  sending,
  onSync,
  onRemove,
  onConnect,
  onRecheck,
}: ConnectionsTableProps) {
  const [sort, setSort] = useState<SortState<SortField>>({ field: 'name', direction: 'asc' });
  const sorted = useMemo(() => sortConnections(rows, sort), [rows, sort]);
  const name = PROVIDER_NAMES[provider];
  const columns = COLUMNS.map((c) => (c.field === 'account' ? { ...c, label: ID_LABELS[provider] } : c));

  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label={`${name} ${TABLE_NOUNS[provider]}`} sx={{ minWidth: 960 }}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.field} sortDirection={sort.field === column.field ? sort.direction : false}>
                <TableSortLabel
                  active={sort.field === column.field}
                  direction={sort.field === column.field ? sort.direction : 'asc'}
                  onClick={() => setSort((current) => nextSort(current, column.field))}
                >
                  {column.label}
                </TableSortLabel>
              </TableCell>
            ))}
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sorted.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length + 1}>
                <Typography color="text.secondary">No {name} {TABLE_NOUNS[provider]} connected yet.</Typography>
              </TableCell>
            </TableRow>
          ) : null}
          {sorted.map((row) => {
            const member = isMemberRow(row);
            const busy = isSyncBusy(row.sync) || (row.id != null && sending.has(row.id));
            return (
              <TableRow key={`${row.id ?? 'seen'}-${row.account_id}`} hover sx={{ verticalAlign: 'top' }} data-testid={`row-${row.account_id}`}>
                <TableCell sx={{ pl: member ? 5 : undefined }}>
                  <Typography variant="body2" sx={{ fontWeight: member ? 400 : 600 }}>
                    {row.account_name}
                  </Typography>
                  {row.organization_id && !member ? (
                    <Typography variant="caption" color="text.secondary">
                      Organization {row.organization_id}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{row.account_id}</TableCell>
                <TableCell>
                  <StateCell row={row} />
                </TableCell>
                <TableCell sx={{ maxWidth: 260 }}>
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {row.export?.location ?? '—'}
                  </Typography>
                </TableCell>
                <TableCell>
                  <SyncCell row={row} />
                </TableCell>
                <TableCell sx={{ maxWidth: 280 }}>
                  <Typography variant="body2" color={row.sync?.last_error ? 'error' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }}>
                    {row.sync?.last_error ?? '—'}
                  </Typography>
                </TableCell>
                <TableCell align="right">
                  {!isConnected(row) ? (
                    <WithReason reason={disabledReason}>
                      <Button size="small" variant="outlined" disabled={!canManage} onClick={() => onConnect(row)} aria-label={`Connect ${row.account_id}`}>
                        Connect
                      </Button>
                    </WithReason>
                  ) : member ? null : (
                    <Stack direction="row" spacing={1} justifyContent="flex-end">
                      {onRecheck && row.registration?.State === 7 ? (
                        <WithReason reason={disabledReason}>
                          <Button
                            size="small"
                            variant="outlined"
                            disabled={!canManage}
                            onClick={() => onRecheck(row)}
                            aria-label={`Check again ${row.account_id}`}
                          >
                            Check again
                          </Button>
                        </WithReason>
                      ) : null}
                      <WithReason reason={disabledReason ?? (row.export ? null : 'This connection has no billing export to sync')}>
                        <Button
                          size="small"
                          variant="outlined"
                          startIcon={<SyncIcon />}
                          disabled={!canManage || !row.export}
                          loading={canManage && busy}
                          loadingPosition="start"
                          onClick={() => row.id != null && onSync(row)}
                          aria-label={`Sync now ${row.account_id}`}
                        >
                          {busy ? 'Syncing…' : 'Sync now'}
                        </Button>
                      </WithReason>
                      <WithReason reason={disabledReason}>
                        <Button
                          size="small"
                          color="error"
                          disabled={!canManage}
                          onClick={() => onRemove(row)}
                          aria-label={`Remove ${row.account_id}`}
                        >
                          Remove
                        </Button>
                      </WithReason>
                    </Stack>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
