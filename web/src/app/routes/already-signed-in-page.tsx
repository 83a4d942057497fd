import { Alert, Button, Stack } from '@mui/material';
import { useMe } from '@/api/queries';
import { useSignOut } from '@/features/auth';

/** An invitation link opened while signed in: it can only be accepted after signing out. */
export function AlreadySignedInPage() {
  const me = useMe();
  const signOut = useSignOut();
  return (
    <Stack spacing={2} sx={{ maxWidth: 560 }}>
      <Alert severity="info">
        You are signed in{me.data ? ` as ${me.data.email}` : ''}. To accept this invitation with another account, sign
        out first and open the link again.
      </Alert>
      <Stack direction="row">
        <Button variant="outlined" onClick={() => signOut.mutate()}>
          Sign Out
        </Button>
      </Stack>
    </Stack>
  );
}
