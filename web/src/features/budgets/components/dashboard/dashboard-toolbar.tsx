import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import CheckIcon from '@mui/icons-material/Check';
import SearchIcon from '@mui/icons-material/Search';
import SortIcon from '@mui/icons-material/Sort';
import {
  Button,
  Chip,
  IconButton,
  InputAdornment,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
} from '@mui/material';
import { useId, useState, type ReactNode } from 'react';
import {
  SORT_FIELD_LABEL,
  SORT_FIELDS,
  STATUS_FILTER_LABEL,
  type BudgetSort,
  type SortField,
  type StatusFilter,
} from '../../model/dashboard';

export interface DashboardToolbarProps {
  search: string;
  onSearchChange: (search: string) => void;
  sort: BudgetSort;
  /** A picked field: the page applies nextSort (same field toggles, new field ascending). */
  onSortField: (field: SortField) => void;
  onToggleDirection: () => void;
  status: StatusFilter | null;
  onClearStatus: () => void;
  /** Extra controls at the end of the row (the mode switch). */
  actions?: ReactNode;
}

/** Search box, sort dropdown with its direction toggle, and the 'Showing: X' chip. */
export function DashboardToolbar(props: DashboardToolbarProps) {
  const { search, onSearchChange, sort, status, onClearStatus, actions } = props;
  const ascending = sort.direction === 'asc';
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} alignItems={{ md: 'center' }} sx={{ mb: 2 }}>
      <TextField
        size="small"
        value={search}
        onChange={(event) => onSearchChange(event.target.value)}
        placeholder="Search by name, account, or provider..."
        slotProps={{
          htmlInput: { 'aria-label': 'Search budgets' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
        sx={{ flex: 1, maxWidth: { md: 420 } }}
      />
      <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
        <SortMenu sort={sort} onSortField={props.onSortField} />
        <Tooltip title={ascending ? 'Ascending' : 'Descending'}>
          <IconButton
            aria-label={ascending ? 'Sort ascending' : 'Sort descending'}
            onClick={props.onToggleDirection}
            size="small"
          >
            {ascending ? <ArrowUpwardIcon fontSize="small" /> : <ArrowDownwardIcon fontSize="small" />}
          </IconButton>
        </Tooltip>
        {status ? <Chip label={`Showing: ${STATUS_FILTER_LABEL[status]}`} onDelete={onClearStatus} color="primary" /> : null}
      </Stack>
      {actions ? <Stack direction="row" sx={{ ml: { md: 'auto' } }}>{actions}</Stack> : null}
    </Stack>
  );
}

/** A menu rather than a select: picking the current field again must toggle the direction. */
function SortMenu({ sort, onSortField }: { sort: BudgetSort; onSortField: (field: SortField) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  return (
    <>
      <Button
        variant="outlined"
        color="inherit"
        size="medium"
        startIcon={<SortIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={Boolean(anchor)}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Sort by: {SORT_FIELD_LABEL[sort.field]}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {SORT_FIELDS.map((field) => (
          <MenuItem
            key={field}
            selected={field === sort.field}
            onClick={() => {
              setAnchor(null);
              onSortField(field);
            }}
          >
            <ListItemIcon>{field === sort.field ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
            <ListItemText>{SORT_FIELD_LABEL[field]}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
