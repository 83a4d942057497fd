import type { Customer } from '@/api/types';

/** The demo customer (spec 2 §6, §9). */
export const DEMO_CUSTOMER_ID = 7;

export function isDemoCustomer(customer: Pick<Customer, 'id' | 'is_demo'> | undefined): boolean {
  return Boolean(customer && (customer.is_demo || customer.id === DEMO_CUSTOMER_ID));
}

export interface CloudPermissions {
  /** Owners and admins connect, remove and sync (spec 2 §6); plain users only read. */
  adminLevel: boolean;
  demo: boolean;
}

/**
 * Connect, remove and "Sync now". Spec 2 §6 names AWS connect and removal for the demo; the
 * server refuses every change to the demo's cloud accounts, so every provider is disabled there.
 */
export function canManage({ adminLevel, demo }: CloudPermissions): boolean {
  return adminLevel && !demo;
}

/** Why the controls are disabled, for their tooltip; null when they are not. */
export function disabledReason({ adminLevel, demo }: CloudPermissions): string | null {
  if (!adminLevel) return NOT_ADMIN_TEXT;
  if (demo) return DEMO_TEXT;
  return null;
}

export { isAdminLevel } from '@/api/roles';

export const NOT_ADMIN_TEXT = 'Only account owners and admins can manage cloud accounts';
export const DEMO_TEXT = 'Cloud accounts cannot be changed in the demo';
