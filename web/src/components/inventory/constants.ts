/** Spec 1 §9 Inventory constants. */

/** Rows per table page. */
export const PAGE_SIZE = 10;
/** Resources fetched per call. */
export const FETCH_COUNT = 200;
/** The header shows "200+" above this many. */
export const COUNT_CAP = 199;
/** Snapshots in the history slider. */
export const HISTORY_SNAPSHOTS = 8;
/** The time-duration picker reaches this many days back. */
export const MAX_DAYS_BACK = 900;
/** The default window: the last 30 days. */
export const DEFAULT_DAYS = 30;

/** Spec 1 §2.7 tag operators, in the order of the select. */
export const TAG_OPERATORS = [
  { value: 'Equal', label: 'Equal' },
  { value: 'NotEqual', label: 'Not Equal' },
  { value: 'Exists', label: 'Exists' },
  { value: 'NotExists', label: 'Not Exists' },
  { value: 'Empty', label: 'Empty' },
  { value: 'NotEmpty', label: 'Not Empty' },
] as const;
