import {
  Button,
  Paper,
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
import type { TeamsIntegration } from '../types';
import { compareValues, nextSort, type SortState } from '../utils/sort';
import { formatDateTimeUtc } from '../utils/status';

/** The columns of spec 2 §3 Teams integration: team_name, team_id, channel_name, channel_id, configured_date. */
export type TeamsSortField = 'team_name' | 'team_id' | 'team_channel_name' | 'team_channel_id' | 'configured_date';

const COLUMNS: { field: TeamsSortField; label: string }[] = [
  { field: 'team_name', label: 'Team' },
  { field: 'team_id', label: 'Team ID' },
  { field: 'team_channel_name', label: 'Channel' },
  { field: 'team_channel_id', label: 'Channel ID' },
  { field: 'configured_date', label: 'Configured' },
];

export function sortTeamsIntegrations(rows: TeamsIntegration[], sort: SortState<TeamsSortField>): TeamsIntegration[] {
  return [...rows].sort((a, b) => {
    const order = compareValues(a[sort.field], b[sort.field]);
    return sort.direction === 'asc' ? order : -order;
  });
}

export interface TeamsIntegrationsTableProps {
  rows: TeamsIntegration[];
  canManage: boolean;
  /** Why Remove is disabled, for its tooltip. */
  disabledReason: string | null;
  onRemove: (row: TeamsIntegration) => void;
}

/** The Microsoft Teams channels that receive notifications, sortable by every column (spec 2 §2, §4 Sorting). */
export function TeamsIntegrationsTable({ rows, canManage, disabledReason, onRemove }: TeamsIntegrationsTableProps) {
  const [sort, setSort] = useState<SortState<TeamsSortField>>({ field: 'team_name', direction: 'asc' });
  const sorted = useMemo(() => sortTeamsIntegrations(rows, sort), [rows, sort]);
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="MS Teams integrations" sx={{ minWidth: 760 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
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
              <TableCell colSpan={COLUMNS.length + 1}>
                <Typography color="text.secondary">No Microsoft Teams channel connected yet.</Typography>
              </TableCell>
            </TableRow>
          ) : null}
          {sorted.map((row) => (
            <TableRow key={row.channel_id} hover data-testid={`teams-${row.channel_id}`}>
              <TableCell sx={{ fontWeight: 600 }}>{row.team_name}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{row.team_id}</TableCell>
              <TableCell>{row.team_channel_name}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{row.team_channel_id}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTimeUtc(row.configured_date)}</TableCell>
              <TableCell align="right">
                <Tooltip title={canManage ? '' : (disabledReason ?? '')}>
                  <span>
                    <Button
                      size="small"
                      color="error"
                      disabled={!canManage}
                      onClick={() => onRemove(row)}
                      aria-label={`Remove ${row.team_name} / ${row.team_channel_name}`}
                    >
                      Remove
                    </Button>
                  </span>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
