import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import {
  Avatar,
  Chip,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import type { User } from '@/api/types';
import { initials } from '@/lib/initials';
import { canDeleteUser, canEditUser, ownerFirst, ROLE_LABELS } from '../utils/permissions';

export interface UsersTableProps {
  users: User[];
  viewer: Pick<User, 'id' | 'role'> | undefined;
  onEdit: (user: User) => void;
  onDelete: (user: User) => void;
}

export function UsersTable({ users, viewer, onEdit, onDelete }: UsersTableProps) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Team members" size="medium" sx={{ minWidth: 720 }}>
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Email</TableCell>
            <TableCell>Role</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {ownerFirst(users).map((user) => {
            const label = user.name || user.email;
            const isOwner = user.role === 'owner';
            const isSelf = viewer?.id === user.id;
            return (
              <TableRow key={user.id} hover>
                <TableCell>
                  <Stack direction="row" spacing={1.5} alignItems="center">
                    <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'primary.main' }} aria-hidden="true">
                      {initials(user.name) || '?'}
                    </Avatar>
                    {user.name ? (
                      <Typography component="span" sx={{ fontWeight: 500 }}>
                        {user.name}
                      </Typography>
                    ) : (
                      <Typography component="span" color="text.secondary" sx={{ fontStyle: 'italic' }}>
                        Invitation not accepted yet
                      </Typography>
                    )}
                    {isSelf ? <Chip size="small" label="You" variant="outlined" /> : null}
                  </Stack>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{user.email}</TableCell>
                <TableCell>{ROLE_LABELS[user.role]}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    label={user.status === 'pending' ? 'Pending' : 'Active'}
                    color={user.status === 'pending' ? 'warning' : 'success'}
                    variant="outlined"
                  />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {isOwner ? null : (
                    <>
                      <Tooltip title="Edit">
                        <span>
                          <IconButton aria-label={`Edit ${label}`} onClick={() => onEdit(user)} disabled={!canEditUser(viewer, user)}>
                            <EditOutlinedIcon fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                      <Tooltip title="Delete">
                        <span>
                          <IconButton
                            aria-label={`Delete ${label}`}
                            onClick={() => onDelete(user)}
                            disabled={!canDeleteUser(viewer, user)}
                          >
                            <DeleteOutlineIcon fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                    </>
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
