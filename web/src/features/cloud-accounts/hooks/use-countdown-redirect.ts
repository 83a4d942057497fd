import { useCountdownRedirect as useCountdownRedirectTo } from '@/lib/use-countdown-redirect';

export const INTEGRATIONS_PATH = '/settings/integrations';

/** While `active`, counts down `ms` and then goes to Cloud Accounts; answers the seconds left. */
export function useCountdownRedirect(active: boolean, ms: number): number {
  return useCountdownRedirectTo(active, ms, INTEGRATIONS_PATH);
}
