import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { Box, Button, Stack, Typography } from '@mui/material';
import type { DetailStatus } from '../../model/health';
import { ManageTooltip } from '../card/manage-tooltip';
import { BudgetStatusChips } from './budget-status-chips';

export interface BudgetDetailHeaderProps {
  title: string;
  /** The server's detail-page reading of the budget. */
  status: DetailStatus;
  /** Owners and admins only; plain users see the buttons disabled (spec 2 §6). */
  canManage: boolean;
  onEdit(): void;
  onDelete(): void;
}

export function BudgetDetailHeader({ title, status, canManage, onEdit, onDelete }: BudgetDetailHeaderProps) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      alignItems={{ xs: 'flex-start', sm: 'center' }}
      justifyContent="space-between"
      sx={{ mb: 3 }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        <Box sx={{ mt: 1 }}>
          <BudgetStatusChips status={status} />
        </Box>
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
        <ManageTooltip canManage={canManage}>
          <Button variant="outlined" startIcon={<EditOutlinedIcon />} onClick={onEdit} disabled={!canManage}>
            Edit
          </Button>
        </ManageTooltip>
        <ManageTooltip canManage={canManage}>
          <Button variant="outlined" color="error" startIcon={<DeleteOutlineIcon />} onClick={onDelete} disabled={!canManage}>
            Delete
          </Button>
        </ManageTooltip>
      </Stack>
    </Stack>
  );
}
