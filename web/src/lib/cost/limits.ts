/** §9 limits of the cost charts and tables. */

/** At most this many data items (series × periods) are drawn in a chart. */
export const CHART_DATA_CAP = 10_000;
/** At most this many group combinations are listed in a table. */
export const TABLE_COMBINATION_CAP = 1_000;
/** At most this many periods (days) are listed in a table. */
export const TABLE_PERIOD_CAP = 365;
