let counter = 0;

/** A unique id for a rule, condition or filter. */
export function newFilterId(prefix = 'filter'): string {
  counter += 1;
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${Date.now().toString(36)}-${counter}-${random}`;
}
