import { isAdminLevel } from '@/api/roles';
import type { Role, User } from '@/api/types';

type Viewer = Pick<User, 'id' | 'role'>;
type Target = Pick<User, 'id' | 'role'>;

export { isAdminLevel };

/** The owner row can't be edited; admins edit anyone else; plain users only their own name. */
export function canEditUser(viewer: Viewer | undefined, target: Target): boolean {
  if (!viewer || target.role === 'owner') return false;
  return isAdminLevel(viewer.role) || viewer.id === target.id;
}

/** Nobody changes their own role, the owner's role never changes, only admins change roles. */
export function canChangeRole(viewer: Viewer | undefined, target: Target): boolean {
  if (!viewer || target.role === 'owner') return false;
  return isAdminLevel(viewer.role) && viewer.id !== target.id;
}

export function canDeleteUser(viewer: Viewer | undefined, target: Target): boolean {
  if (!viewer || target.role === 'owner') return false;
  return isAdminLevel(viewer.role) && viewer.id !== target.id;
}

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', user: 'User' };

/** Roles that can be given by invitation or edit, as sent to the server. */
export const ASSIGNABLE_ROLES = ['Admin', 'User'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export function toAssignableRole(role: Role): AssignableRole {
  return role === 'admin' ? 'Admin' : 'User';
}

/** The owner first, then the others in the server's order. */
export function ownerFirst(users: User[]): User[] {
  return [...users.filter((u) => u.role === 'owner'), ...users.filter((u) => u.role !== 'owner')];
}
