import PersonAddAltOutlinedIcon from '@mui/icons-material/PersonAddAltOutlined';
import { Alert, Box, Button, Skeleton, Stack } from '@mui/material';
import { useEffect, useState } from 'react';
import { useAppConfig, useMe } from '@/api/queries';
import type { InviteResponse, User } from '@/api/types';
import { PageHeader } from '@/components/page-header';
import { useUsers } from '../api/get-users';
import { SUCCESS_NOTICE_MS, USER_MESSAGES } from '../utils/messages';
import { canChangeRole, isAdminLevel } from '../utils/permissions';
import { DeleteUserDialog } from './delete-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { InviteLinkPanel } from './invite-link-panel';
import { InviteUserDialog } from './invite-user-dialog';
import { RolesExplanation } from './roles-explanation';
import { UsersTable } from './users-table';

/** Spec 2: /settings/users — the team members of the account and their roles. */
export function UserManagementPage() {
  const config = useAppConfig();
  const me = useMe();
  const users = useUsers();
  const [success, setSuccess] = useState<string | null>(null);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [lastInvitation, setLastInvitation] = useState<InviteResponse | null>(null);
  const [editing, setEditing] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(null), SUCCESS_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [success]);

  const viewer = me.data;
  const adminLevel = isAdminLevel(viewer?.role);

  return (
    <Box>
      <PageHeader
        title="User Management"
        subtitle="Invite your team, assign roles and manage who can access this account."
        actions={
          <Button
            variant="contained"
            startIcon={<PersonAddAltOutlinedIcon />}
            onClick={() => setInviteOpen(true)}
            disabled={!adminLevel}
          >
            Invite User
          </Button>
        }
      />

      {success ? (
        <Alert severity="success" role="status" sx={{ mb: 3 }} onClose={() => setSuccess(null)}>
          {success}
        </Alert>
      ) : null}
      {lastInvitation ? <InviteLinkPanel invitation={lastInvitation} onClose={() => setLastInvitation(null)} /> : null}
      {!adminLevel && viewer ? (
        <Alert severity="info" variant="outlined" sx={{ mb: 3 }}>
          Only owners and admins can invite, edit or remove team members. You can edit your own name.
        </Alert>
      ) : null}

      {users.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => users.refetch()}>
              Retry
            </Button>
          }
        >
          {USER_MESSAGES.fetchFailed}
        </Alert>
      ) : users.isPending ? (
        <Stack spacing={1} aria-label="Loading team members">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={52} />
          ))}
        </Stack>
      ) : (
        <UsersTable users={users.data} viewer={viewer} onEdit={setEditing} onDelete={setDeleting} />
      )}

      <RolesExplanation documentationUrl={config.documentation_url} />

      <InviteUserDialog
        open={inviteOpen}
        onClose={() => setInviteOpen(false)}
        onInvited={(result, email) => {
          setInviteOpen(false);
          setLastInvitation(result);
          setSuccess(USER_MESSAGES.invited(email));
        }}
      />
      {editing ? (
        <EditUserDialog
          key={editing.id}
          user={editing}
          canChangeRole={canChangeRole(viewer, editing)}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setSuccess(USER_MESSAGES.updated);
          }}
        />
      ) : null}
      {deleting ? (
        <DeleteUserDialog
          key={deleting.id}
          user={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            setSuccess(USER_MESSAGES.deleted);
          }}
        />
      ) : null}
    </Box>
  );
}
