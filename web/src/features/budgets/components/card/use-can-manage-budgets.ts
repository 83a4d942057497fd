import { useMe } from '@/api/queries';
import type { Role } from '@/api/types';
import { isAdminLevel } from '@/api/roles';

/** The tooltip of the create, edit and delete controls for a plain user (the server's 403 message). */
export const MANAGE_BUDGETS_DENIED = 'Only owners and admins can manage budgets';

/** Owners and admins create, edit and delete budgets; a plain user only views (docs/API-BUDGETS.md Roles). */
export function canManageBudgets(role: Role | undefined): boolean {
  return isAdminLevel(role);
}

export function useCanManageBudgets(): boolean {
  return canManageBudgets(useMe().data?.role);
}
