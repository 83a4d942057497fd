import type { Role } from '@/api/types';

/** Owners and admins create, delete and test channels; every role may list them (docs/NOTIFICATIONS.md). */
export function isAdminLevel(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin';
}
