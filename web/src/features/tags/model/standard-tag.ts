/** Standard tag dialog rules (spec 1 §2.9, §5, §8). */

export const STANDARD_TAG_MESSAGES = {
  /** §8: the server's message, or this. */
  defaultError: 'An error occurred',
  emptyState: 'No standard tags found',
  emptyStateHint: "You haven't created any standard tags yet. Click Add New Tag to create one.",
  keyRequired: 'Tag key is required',
  deleteTitle: 'Confirm Tag Deletion',
} as const;

/** §5: values split by commas, trimmed, empties dropped (duplicates dropped too, as the server does). */
export function parseTagValues(text: string): string[] {
  const values: string[] = [];
  for (const item of text.split(',')) {
    const value = item.trim();
    if (value && !values.includes(value)) values.push(value);
  }
  return values;
}

/** The Tag Values field of an existing tag. */
export function formatTagValues(values: readonly string[]): string {
  return values.join(', ');
}
