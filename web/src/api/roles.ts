import type { Role } from './types';

/**
 * Owners and admins manage what a tenant shares (users, integrations, channels, budgets, …);
 * plain users read. The server's `Role::is_admin_level` enforces it; pages use this to leave
 * out or disable what would be refused.
 */
export function isAdminLevel(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin';
}
