import { Alert, AlertTitle } from '@mui/material';
import { useAccounts } from '@/api/queries';
import type { CloudAccount } from '@/api/types';

/** §9: the onboarding notice window. */
export const DATA_READY_WINDOW_MS = 24 * 60 * 60 * 1000;

export function hasNewAccount(accounts: CloudAccount[], now: number = Date.now()): boolean {
  return accounts.some((account) => {
    const created = Date.parse(account.creation_time);
    return Number.isFinite(created) && now - created < DATA_READY_WINDOW_MS && now - created >= 0;
  });
}

/** §2.5: shown while any account is less than 24 hours old. */
export function DataReadyNotice() {
  const { data: accounts } = useAccounts();
  if (!accounts || !hasNewAccount(accounts)) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      <AlertTitle>Getting Your Data Ready</AlertTitle>
      An account was connected less than 24 hours ago. Its cost data can take up to 24 hours to appear.
    </Alert>
  );
}
