import { useCustomer, useMe } from '@/api/queries';
import { canManage, disabledReason, isAdminLevel, isDemoCustomer, type CloudPermissions } from '../utils/permissions';

export interface CloudAccess extends CloudPermissions {
  /** Connect, remove and "Sync now" are allowed. */
  canManage: boolean;
  /** Why they are not, for the page's notice and the controls' tooltips. */
  reason: string | null;
  /** The role and customer are known (the controls stay disabled until then). */
  ready: boolean;
}

/** Owners and admins manage cloud accounts; plain users and the demo customer only read (spec 2 §6). */
export function useCloudPermissions(): CloudAccess {
  const me = useMe();
  const customer = useCustomer();
  const permissions = { adminLevel: isAdminLevel(me.data?.role), demo: isDemoCustomer(customer.data) };
  const ready = Boolean(me.data && customer.data);
  return {
    ...permissions,
    ready,
    canManage: ready && canManage(permissions),
    reason: ready ? disabledReason(permissions) : null,
  };
}
