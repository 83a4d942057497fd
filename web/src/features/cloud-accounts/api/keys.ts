import { sharedKeys } from '@/api/queries';

/** GET /v1/account is the shell's account list too: one key, so a connect or removal updates both. */
export const cloudKeys = {
  accounts: sharedKeys.accounts,
  teams: ['cloud-accounts', 'teams-integrations'] as const,
  registrationJob: (accountId: string) => ['cloud-accounts', 'registration-job', accountId] as const,
};
