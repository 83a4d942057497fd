import { isApiError } from '@/api/api-error';

/** Spec 2 §8 Users, word for word. */
export const USER_MESSAGES = {
  fetchFailed: 'Failed to fetch users',
  inviteFailed: 'Failed to send invitation',
  updateFailed: 'Failed to update user details',
  deleteFailed: 'Failed to delete user',
  noChanges: 'No changes made',
  invited: (email: string) => `Invitation sent to ${email}`,
  updated: 'User details updated successfully',
  deleted: 'User deleted successfully',
  alreadyExists: (email: string) => `User ${email} already exists`,
} as const;

/** Success notices disappear after 3 s; errors stay. */
export const SUCCESS_NOTICE_MS = 3_000;

export function inviteErrorMessage(error: unknown, email: string): string {
  if (isApiError(error) && error.status === 409) return error.serverMessage ?? USER_MESSAGES.alreadyExists(email);
  return USER_MESSAGES.inviteFailed;
}
