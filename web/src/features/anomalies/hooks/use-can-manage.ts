import { useMe } from '@/api/queries';

/**
 * Owners and admins change an anomaly's status and the settings; every role reads them
 * (docs/ANOMALIES.md). The server enforces it; the pages only leave out what would be refused.
 */
export function useCanManageAnomalies(): boolean {
  const role = useMe().data?.role;
  return role === 'owner' || role === 'admin';
}
