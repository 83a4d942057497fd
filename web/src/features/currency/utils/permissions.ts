import type { Role } from '@/api/types';
import { isAdminLevel } from '@/api/roles';

/** The server's 403 to a plain user, shown beside the read-only settings. */
export const MANAGE_CURRENCY_DENIED = 'Only owners and admins can change the display currency';

/** Owners and admins choose the display currency and upload or delete rates; users only read them. */
export function canManageCurrency(role: Role | undefined): boolean {
  return isAdminLevel(role);
}
