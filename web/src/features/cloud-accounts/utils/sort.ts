/** Spec 2 §4 Sorting: the same field again toggles the direction, a new field starts ascending. */
export interface SortState<K extends string> {
  field: K;
  direction: 'asc' | 'desc';
}

export function nextSort<K extends string>(current: SortState<K>, field: K): SortState<K> {
  if (current.field === field) return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { field, direction: 'asc' };
}

export function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  // Empty values last in ascending order.
  if (a === null || a === '') return 1;
  if (b === null || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true, sensitivity: 'base' });
}
