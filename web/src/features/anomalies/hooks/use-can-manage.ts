import { useMe } from '@/api/queries';
import { isAdminLevel } from '@/api/roles';

/**
 * Owners and admins change an anomaly's status and the settings; every role reads them
 * (docs/ANOMALIES.md). The server enforces it; the pages only leave out what would be refused.
 */
export function useCanManageAnomalies(): boolean {
  return isAdminLevel(useMe().data?.role);
}
