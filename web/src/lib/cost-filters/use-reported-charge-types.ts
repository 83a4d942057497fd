import { FILTER_OPTIONS_DEBOUNCE_MS, useCostFilterOptions, type TimeRange } from '@/lib/cost';
import { optionDates } from './filter-options';

const NONE: ReadonlyArray<string> = [];

/**
 * The charge types the API reports for the tenant over the range (`cost_type` of an unfiltered
 * POST /v2/cost/filters), which the Include select offers after the documented ones. Nothing
 * while the answer is pending or failed (the documented types are offered regardless); nothing
 * is asked while `enabled` is false (the toolbar asks once the menu has been opened, so loading
 * the page costs no extra request) or for a custom range without dates.
 */
export function useReportedChargeTypes(range: TimeRange, enabled = true): ReadonlyArray<string> {
  const dates = enabled ? optionDates(range) : null;
  const answer = useCostFilterOptions(dates ? { ...dates, filters: [] } : null, { debounceMs: FILTER_OPTIONS_DEBOUNCE_MS });
  const reported = answer.data?.cost_type;
  return Array.isArray(reported) ? reported : NONE;
}
