import { randomSuffix } from '@/lib/random-id';
let counter = 0;

/** A unique id for a rule, condition or filter. */
export function newFilterId(prefix = 'filter'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${randomSuffix()}`;
}
