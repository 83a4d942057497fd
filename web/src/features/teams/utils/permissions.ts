import type { Role } from '@/api/types';

/** Owners and admins connect Microsoft Teams (spec 2 §6); the server refuses everyone else. */
export function isAdminLevel(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin';
}
