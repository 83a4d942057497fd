/** The user-name rules of spec 2 §5 (and of the server): first failing message, or null. */
export const USER_NAME_MESSAGES = {
  empty: 'Username cannot be empty',
  leadingSpace: "Can't start with a space",
  consecutiveSpaces: 'Too many consecutive spaces',
  tooShort: 'Must be at least 4 characters',
} as const;

export const USER_NAME_MIN_LENGTH = 4;

export function validateUserName(raw: string): string | null {
  // Trailing spaces are trimmed, as on the server.
  const name = raw.replace(/\s+$/u, '');
  if (name.length === 0) return USER_NAME_MESSAGES.empty;
  if (/^\s/u.test(name)) return USER_NAME_MESSAGES.leadingSpace;
  if (/ {4,}/u.test(name)) return USER_NAME_MESSAGES.consecutiveSpaces;
  if (Array.from(name).length < USER_NAME_MIN_LENGTH) return USER_NAME_MESSAGES.tooShort;
  return null;
}

export function normaliseUserName(raw: string): string {
  return raw.replace(/\s+$/u, '');
}
