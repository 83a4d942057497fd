import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  Chip,
  IconButton,
  Skeleton,
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
import { useEffect, useState, type ReactElement } from 'react';
import { isApiError } from '@/api/api-error';
import { useCustomer, useMe } from '@/api/queries';
import { isDemoCustomer, type StandardTag } from '@/components/inventory';
import { useStandardTags } from '../api/tags-api';
import { STANDARD_TAG_MESSAGES } from '../model/standard-tag';
import { DeleteTagDialog } from './delete-tag-dialog';
import { ErrorMessage } from './error-message';
import { StandardTagDialog } from './standard-tag-dialog';

export const NOT_ADMIN_TEXT = 'Only account owners and admins can manage standard tags';
export const DEMO_TEXT = 'Standard tags cannot be changed in the demo';

type Editing = { mode: 'add' } | { mode: 'edit'; tag: StandardTag } | null;

/** The Standard Tags Manager (spec 1 §2.9). */
export function StandardTagsManager() {
  const tags = useStandardTags();
  const me = useMe();
  const customer = useCustomer();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<StandardTag | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (tags.isError) {
      setError(isApiError(tags.error) && tags.error.serverMessage ? tags.error.serverMessage : STANDARD_TAG_MESSAGES.defaultError);
    }
  }, [tags.isError, tags.error]);

  const adminLevel = me.data?.role === 'owner' || me.data?.role === 'admin';
  const demo = isDemoCustomer(customer.data);
  const reason = !me.data ? null : !adminLevel ? NOT_ADMIN_TEXT : demo ? DEMO_TEXT : null;
  const canManage = Boolean(me.data && customer.data) && reason === null;
  const rows = tags.data ?? [];

  const guarded = (title: string, node: ReactElement) => (
    <Tooltip title={reason ?? title}>
      <span>{node}</span>
    </Tooltip>
  );

  return (
    <Box>
      {error ? <ErrorMessage message={error} onClose={() => setError(null)} /> : null}
      <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 2 }}>
        <Typography color="text.secondary" variant="body2">
          Tag keys every resource should carry, with the values each may take.
        </Typography>
        {guarded(
          'Add a standard tag',
          <Button variant="contained" startIcon={<AddIcon />} disabled={!canManage} onClick={() => setEditing({ mode: 'add' })}>
            Add New Tag
          </Button>,
        )}
      </Stack>
      {tags.isPending ? (
        <Skeleton aria-label="Loading standard tags" height={120} />
      ) : rows.length === 0 && !tags.isError ? (
        <Box sx={{ textAlign: 'center', py: 6 }}>
          <Typography variant="h6" component="p">
            {STANDARD_TAG_MESSAGES.emptyState}
          </Typography>
          <Typography color="text.secondary">{STANDARD_TAG_MESSAGES.emptyStateHint}</Typography>
        </Box>
      ) : rows.length ? (
        <TableContainer>
          <Table aria-label="Standard tags">
            <TableHead>
              <TableRow>
                <TableCell>Tag Key</TableCell>
                <TableCell>Values</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((tag) => (
                <TableRow key={tag.id}>
                  <TableCell sx={{ fontWeight: 500 }}>{tag.key}</TableCell>
                  <TableCell>
                    {tag.values.length ? (
                      <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                        {tag.values.map((value) => (
                          <Chip key={value} size="small" label={value} />
                        ))}
                      </Stack>
                    ) : (
                      <Typography variant="body2" color="text.secondary">
                        Any value
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {guarded(
                      'Edit',
                      <IconButton aria-label={`Edit ${tag.key}`} disabled={!canManage} onClick={() => setEditing({ mode: 'edit', tag })}>
                        <EditIcon fontSize="small" />
                      </IconButton>,
                    )}
                    {guarded(
                      'Delete',
                      <IconButton aria-label={`Delete ${tag.key}`} disabled={!canManage} onClick={() => setDeleting(tag)}>
                        <DeleteIcon fontSize="small" />
                      </IconButton>,
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {editing ? <StandardTagDialog tag={editing.mode === 'edit' ? editing.tag : undefined} onClose={() => setEditing(null)} /> : null}
      {deleting ? <DeleteTagDialog tag={deleting} onClose={() => setDeleting(null)} /> : null}
    </Box>
  );
}
